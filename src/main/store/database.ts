import { openSqlite, type Db } from '../../common/sqlite';
import type { Migration } from '../../shared/sqlite-migrate';
import { clientMigrations } from './migrations';

export type { Db };

/** The client database (reelsync.db): WAL, STRICT tables, numbered migrations. */
export function openDatabase(file: string, options: { migrations?: readonly Migration[] } = {}): Db {
  return openSqlite(file, options.migrations ?? clientMigrations);
}
