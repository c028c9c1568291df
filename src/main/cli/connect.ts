import { dirname, join } from 'node:path';
import { LibraryClient } from '../api/client';
import { createLocalKey, startLocalService } from '../api/local-service';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { AppSettings } from '../settings/app-settings';
import { nodeKeyVault } from '../settings/os-keychain';
import { UsageError, type GlobalOptions } from './options';

export interface Connection {
  client: LibraryClient;
  baseUrl: string;
  key: string;
  close(): Promise<void>;
}

const LOCAL_CREDITS = 100_000;

/** --server/--key, or the embedded service in `<db folder>/service` with its key sealed (OS keychain, else the client database). */
export async function connect(options: GlobalOptions, db: Db, logger: Logger): Promise<Connection> {
  if (options.server) {
    if (!options.key) throw new UsageError('--server needs --key (or REELSYNC_KEY)');
    const client = new LibraryClient({ baseUrl: options.server, key: options.key, logger });
    return { client, baseUrl: options.server, key: options.key, close: () => client.close() };
  }
  const dataDir = join(dirname(options.db), 'service');
  const settings = new AppSettings(db, nodeKeyVault());
  let key = options.key ?? settings.embeddedKey();
  if (!key) {
    key = createLocalKey(dataDir, 'local', LOCAL_CREDITS);
    settings.setEmbeddedKey(key);
  }
  const service = await startLocalService(dataDir, logger);
  const client = new LibraryClient({ baseUrl: service.baseUrl, key, logger });
  return {
    client,
    baseUrl: service.baseUrl,
    key,
    close: async () => {
      await client.close();
      await service.stop();
    },
  };
}
