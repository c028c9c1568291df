import { dirname, join } from 'node:path';
import { LibraryClient } from '../api/client';
import { createLocalKey, startLocalService } from '../api/local-service';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { SettingsStore } from '../store/settings-store';
import { UsageError, type GlobalOptions } from './options';

export interface Connection {
  client: LibraryClient;
  baseUrl: string;
  key: string;
  close(): Promise<void>;
}

const LOCAL_KEY = 'embedded.service.key';
const LOCAL_CREDITS = 100_000;

/** --server/--key, or the embedded service in `<db folder>/service` with a key kept in the client database. */
export async function connect(options: GlobalOptions, db: Db, logger: Logger): Promise<Connection> {
  if (options.server) {
    if (!options.key) throw new UsageError('--server needs --key (or REELSYNC_KEY)');
    const client = new LibraryClient({ baseUrl: options.server, key: options.key, logger });
    return { client, baseUrl: options.server, key: options.key, close: () => client.close() };
  }
  const dataDir = join(dirname(options.db), 'service');
  const settings = new SettingsStore(db);
  let key = options.key ?? settings.get(LOCAL_KEY);
  if (!key) {
    key = createLocalKey(dataDir, 'local', LOCAL_CREDITS);
    settings.set(LOCAL_KEY, key);
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
