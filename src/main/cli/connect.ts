import { dirname } from 'node:path';
import { connectClient, type ConnectedClient, type ConnectTarget } from '../connection/connect';
import type { Logger } from '../log';
import { AppSettings } from '../settings/app-settings';
import { nodeKeyVault } from '../settings/os-keychain';
import type { Db } from '../store/database';
import { UsageError, type GlobalOptions } from './options';

export type Connection = ConnectedClient;

/** --server/--key, or else the embedded service of the database's folder, through the app's one connector. */
export function connectTarget(options: GlobalOptions): ConnectTarget {
  if (!options.server) return { kind: 'embedded', key: options.key };
  if (!options.key) throw new UsageError('--server needs --key (or REELSYNC_KEY)');
  return { kind: 'given', baseUrl: options.server, key: options.key };
}

/** The embedded service lives in `<db folder>/service` (log in `<db folder>/logs`), its key sealed like the app's. */
export async function connect(options: GlobalOptions, db: Db, logger: Logger): Promise<Connection> {
  const target = connectTarget(options);
  return connectClient(new AppSettings(db, nodeKeyVault()), target, { dataDir: dirname(options.db), logger });
}
