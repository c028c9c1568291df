import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import type { Db } from '../../common/sqlite';
import { migrate } from '../../shared/sqlite-migrate';
import { serviceDbFile } from '../storage/db';
import { serviceMigrations } from '../storage/migrations';
import { renumberSqlite } from '../storage/schema-renumbering';

/** The copy cannot start: nothing was changed on either side. */
export class MigrateRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrateRefusal';
  }
}

/**
 * The library's service.db, held exclusively for the whole copy. The service has no lock file of its own: while it
 * runs it keeps service.db open in WAL mode, and SQLite's exclusive locking mode cannot be taken while any other
 * connection has the file open. So a running service is refused here, and a service started during the copy fails to
 * open its database (it retries for 5 s, then exits) instead of changing rows the copy already passed.
 */
export function openSourceLibrary(dataDir: string): Db {
  const file = serviceDbFile(dataDir);
  if (!existsSync(file)) throw new MigrateRefusal(`no library in ${dataDir}: ${file} does not exist`);
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    try {
      db.exec('BEGIN EXCLUSIVE');
      db.prepare('SELECT COUNT(*) AS n FROM sqlite_master').get();
      db.exec('COMMIT');
    } catch (err) {
      if (isBusy(err)) {
        throw new MigrateRefusal(
          `the library in ${dataDir} is open in another process (the service, or the desktop app running it): ` +
            'stop it, then run migrate-to again',
        );
      }
      throw err;
    }
    // What the service does at its start: the copy reads the schema this build's PostgreSQL migrations mirror.
    renumberSqlite(db);
    migrate(db, serviceMigrations);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function isBusy(err: unknown): boolean {
  return err instanceof Error && 'code' in err && (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_LOCKED');
}
