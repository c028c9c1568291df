import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, type Migration } from '../shared/sqlite-migrate';
import { ensurePrivateFileSync, PRIVATE_DIR, privateIfExistsSync } from './private-files';

export type Db = Database.Database;

/**
 * Opens (creating if needed) a SQLite file in WAL mode with foreign keys on, and brings its schema up to date.
 * Refuses a file whose schema is newer than `migrations`. `prepare` runs first (the service renumbers old files). The caller owns the connection and must close it.
 * The file is 0600 before SQLite opens it (SQLite gives its -wal and -shm the database's mode); a folder it creates
 * is 0700. An existing folder keeps its mode: a database may live in a folder the user shares (`--db ./x.db`).
 */
export function openSqlite(
  file: string,
  migrations: readonly Migration[],
  prepare?: (db: Database.Database) => void,
): Db {
  if (file !== ':memory:') {
    const dir = dirname(file);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
    ensurePrivateFileSync(file);
  }
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    if (file !== ':memory:') privateIfExistsSync([`${file}-wal`, `${file}-shm`]);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    prepare?.(db);
    migrate(db, migrations);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
