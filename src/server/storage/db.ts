import { join } from 'node:path';
import { openSqlite, type Db } from '../../common/sqlite';
import { serviceMigrations } from './migrations';

export type { Db };

export function serviceDbFile(dataDir: string): string {
  return join(dataDir, 'service.db');
}

export function openServiceDb(dataDir: string): Db {
  return openSqlite(serviceDbFile(dataDir), serviceMigrations);
}
