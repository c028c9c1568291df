import { ConfigError, type ServiceConfig } from '../config';
import { openServiceDb, type Db } from './db';
import type { Sql } from './sql';
import { SqliteSql } from './sqlite-sql';

/** The service database the config names: PostgreSQL at `database.url`, else SQLite in the data folder. */
export type ServiceDatabase =
  | { engine: 'sqlite'; sql: Sql; db: Db; where: string; close(): Promise<void> }
  | { engine: 'postgres'; sql: Sql; url: string; where: string; close(): Promise<void> };

/**
 * Opens (and migrates) the service database. PostgreSQL is loaded only when configured: its driver is no part of the
 * embedded service's start. `where` names it for logs: the SQLite file, or host:port, never a password.
 */
export async function openServiceDatabase(
  config: ServiceConfig,
  dataDir: string | undefined,
): Promise<ServiceDatabase> {
  const url = config.database.url;
  if (url !== undefined) {
    const { openPgSql } = await import('./open-pg-sql');
    const sql = await openPgSql(url);
    // Searches get connections of their own, one per search worker (SearchPool with pgSearchWorker): requests never
    // queue behind them.
    return { engine: 'postgres', sql, url, where: `PostgreSQL at ${sql.where}`, close: () => sql.close() };
  }
  if (dataDir === undefined)
    throw new ConfigError('--data is required unless the config sets database.url (or REELSYNC_DATABASE_URL)');
  const db = openServiceDb(dataDir);
  return {
    engine: 'sqlite',
    sql: new SqliteSql(db),
    db,
    where: `SQLite in ${dataDir}`,
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}
