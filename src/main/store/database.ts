import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, type Migration } from '../../shared/sqlite-migrate';
import { clientMigrations } from './migrations';

export type Db = Database.Database;

export interface OpenOptions {
  migrations?: readonly Migration[];
  readonly?: boolean;
}

/**
 * Opens (creating if needed) a SQLite file in WAL mode and brings its schema up to date.
 * The caller owns the returned connection and must close it.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly: options.readonly ?? false });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, options.migrations ?? clientMigrations);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
