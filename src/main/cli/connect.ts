import { dirname, join } from 'node:path';
import { LibraryClient } from '../api/client';
import type { Logger } from '../log';
import { startEmbeddedService } from '../service/embedded';
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

/** --server/--key, or the embedded service in `<db folder>/service` (log in `<db folder>/logs`) with its key sealed (OS keychain, else the client database). */
export async function connect(options: GlobalOptions, db: Db, logger: Logger): Promise<Connection> {
  if (options.server) {
    if (!options.key) throw new UsageError('--server needs --key (or REELSYNC_KEY)');
    const client = new LibraryClient({ baseUrl: options.server, key: options.key, logger });
    return { client, baseUrl: options.server, key: options.key, close: () => client.close() };
  }
  const settings = new AppSettings(db, nodeKeyVault());
  const given = options.key;
  const service = await startEmbeddedService({
    serviceDir: join(dirname(options.db), 'service'),
    logDir: join(dirname(options.db), 'logs'),
    keys: { get: () => given ?? settings.embeddedKey(), set: (key) => settings.setEmbeddedKey(key) },
    logger,
  });
  const client = new LibraryClient({ baseUrl: service.baseUrl, key: service.key, logger });
  return {
    client,
    baseUrl: service.baseUrl,
    key: service.key,
    close: async () => {
      await client.close();
      await service.stop();
    },
  };
}
