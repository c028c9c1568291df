import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, type Migration } from '../shared/sqlite-migrate';

export type Db = Database.Database;

/**
 * Opens (creating if needed) a SQLite file in WAL mode with foreign keys on, and brings its schema up to date.
 * Refuses a file whose schema is newer than `migrations`. The caller owns the connection and must close it.
 */
export function openSqlite(file: string, migrations: readonly Migration[]): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
