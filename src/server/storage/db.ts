import { join } from 'node:path';
import { openSqlite, type Db } from '../../common/sqlite';
import { serviceMigrations } from './migrations';

export type { Db };

export function openServiceDb(dataDir: string): Db {
  return openSqlite(join(dataDir, 'service.db'), serviceMigrations);
}
