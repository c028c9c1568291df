import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Db } from '../../src/common/sqlite';
import { openServiceDb } from '../../src/server/storage/db';
import { openPgSql } from '../../src/server/storage/open-pg-sql';
import type { PgSql } from '../../src/server/storage/pg-sql';
import type { Sql, SqlDialect } from '../../src/server/storage/sql';
import { SqliteSql } from '../../src/server/storage/sqlite-sql';
import { skipPostgresTests, startPostgres, type TestPostgres } from './postgres';
import { tempDir } from './temp';

/** The engines a store's tests run on: SQLite always, PostgreSQL where its binaries are (and always under CI). */
export const SERVICE_SQL_ENGINES: readonly SqlDialect[] = skipPostgresTests ? ['sqlite'] : ['sqlite', 'postgres'];

interface Current {
  sql: Sql;
  /** The SQLite connection under `sql` (for what stays SQLite-only, e.g. the FTS5 index); undefined on PostgreSQL. */
  db: Db | undefined;
  close: () => Promise<void>;
}

/**
 * A fresh service database, migrated, on `engine` for each test of the enclosing describe: read `sql` (and `db` on
 * SQLite) inside the tests. On PostgreSQL one server serves the describe block, one new database per test.
 *
 *   describe.each(SERVICE_SQL_ENGINES)('videos on %s', (engine) => {
 *     const t = useServiceSql(engine);
 *     it('...', async () => { const videos = new Videos(t.sql); ... });
 *   });
 */
export function useServiceSql(engine: SqlDialect): { readonly sql: Sql; readonly db: Db | undefined } {
  const server = usePostgresServer(engine);
  let current: Current | undefined;
  beforeEach(async () => {
    current = engine === 'postgres' ? await openPostgres(server()) : await openSqlite();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const now = (): Current => {
    if (!current) throw new Error('useServiceSql: read sql and db inside a test');
    return current;
  };
  return {
    get sql() {
      return now().sql;
    },
    get db() {
      return now().db;
    },
  };
}

/** One PostgreSQL server for the enclosing describe block when `engine` is postgres (none on SQLite). */
export function usePostgresServer(engine: SqlDialect): () => TestPostgres | undefined {
  let server: TestPostgres | undefined;
  if (engine === 'postgres') {
    beforeAll(async () => {
      server = await startPostgres();
    });
    afterAll(async () => {
      await server?.stop();
    });
  }
  return () => server;
}

async function openSqlite(): Promise<Current> {
  const { dir, cleanup } = await tempDir();
  const db = openServiceDb(join(dir, 'data'));
  return {
    sql: new SqliteSql(db),
    db,
    close: async () => {
      db.close();
      await cleanup();
    },
  };
}

async function openPostgres(server: TestPostgres | undefined): Promise<Current> {
  if (!server) throw new Error('useServiceSql: PostgreSQL did not start');
  const sql: PgSql = await openPgSql(await server.createDatabase());
  return { sql, db: undefined, close: () => sql.close() };
}
