import { join } from 'node:path';
import { ensurePrivateDirSync } from '../../common/private-files';
import { openSqlite, type Db } from '../../common/sqlite';
import { serviceMigrations } from './migrations';
import { renumberSqlite } from './schema-renumbering';

export type { Db };

export function serviceDbFile(dataDir: string): string {
  return join(dataDir, 'service.db');
}

/** The service database in its data folder, which is made 0700 (blobs, keys and uploads live under it). */
export function openServiceDb(dataDir: string): Db {
  ensurePrivateDirSync(dataDir);
  return openSqlite(serviceDbFile(dataDir), serviceMigrations, renumberSqlite);
}
