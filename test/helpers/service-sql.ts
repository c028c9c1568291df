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

/** One fresh service database that several connections reach, as several processes do. */
export interface SharedDatabase {
  /** A new connection (its own SQLite connection to the file, or its own PostgreSQL pool), closed after the test. */
  connect(): Promise<Sql>;
  /** The same, with the SQLite connection under it (for what stays SQLite-only, e.g. the FTS5 index). */
  connection(): Promise<{ sql: Sql; db: Db | undefined }>;
  /** The SQLite data folder (for child processes opening it themselves); undefined on PostgreSQL. */
  readonly dataDir: string | undefined;
}

interface Current extends SharedDatabase {
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
  const database = useSharedDatabase(engine);
  let current: { sql: Sql; db: Db | undefined } | undefined;
  beforeEach(async () => {
    current = await database().connection();
  });
  afterEach(() => {
    current = undefined;
  });
  const now = (): { sql: Sql; db: Db | undefined } => {
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

/**
 * Like useServiceSql, for tests that need several connections to one database (several worker processes): a fresh
 * database per test, as many connections as the test asks for. Call it before the describe's own afterEach hooks
 * (those run first, while the connections are open).
 */
export function useSharedDatabase(engine: SqlDialect): () => SharedDatabase {
  const server = usePostgresServer(engine);
  let current: Current | undefined;
  beforeEach(async () => {
    current = engine === 'postgres' ? await openPostgres(server()) : await openSqlite();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('useSharedDatabase: connect inside a test');
    return current;
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

function shared(
  connection: () => Promise<{ sql: Sql; db: Db | undefined }>,
  dataDir: string | undefined,
): SharedDatabase {
  return { connection, connect: async () => (await connection()).sql, dataDir };
}

async function openSqlite(): Promise<Current> {
  const { dir, cleanup } = await tempDir();
  const dbs: Db[] = [];
  const dataDir = join(dir, 'data');
  return {
    ...shared(() => {
      const db = openServiceDb(dataDir);
      dbs.push(db);
      return Promise.resolve({ sql: new SqliteSql(db), db });
    }, dataDir),
    close: async () => {
      for (const db of dbs) db.close();
      await cleanup();
    },
  };
}

async function openPostgres(server: TestPostgres | undefined): Promise<Current> {
  if (!server) throw new Error('useServiceSql: PostgreSQL did not start');
  const url = await server.createDatabase();
  const pools: PgSql[] = [];
  return {
    ...shared(async () => {
      const sql = await openPgSql(url);
      pools.push(sql);
      return { sql, db: undefined };
    }, undefined),
    close: async () => {
      for (const pool of pools) await pool.close();
    },
  };
}
