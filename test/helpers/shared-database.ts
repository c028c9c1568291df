import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openServiceDb, type Db } from '../../src/server/storage/db';
import { openPgSql } from '../../src/server/storage/open-pg-sql';
import type { PgSql } from '../../src/server/storage/pg-sql';
import type { Sql, SqlDialect } from '../../src/server/storage/sql';
import { SqliteSql } from '../../src/server/storage/sqlite-sql';
import { startPostgres, type TestPostgres } from './postgres';
import { tempDir } from './temp';

/** One fresh service database that several connections reach, as several processes do. */
export interface SharedDatabase {
  /** A new connection (its own SQLite connection to the file, or its own PostgreSQL pool). */
  connect(): Promise<Sql>;
}

/**
 * A fresh migrated service database on `engine` for each test of the enclosing describe, with as many connections as
 * the test asks for; all closed after it. Call it before the describe's own afterEach hooks (they run first).
 */
export function useSharedDatabase(engine: SqlDialect): () => SharedDatabase {
  let server: TestPostgres | undefined;
  let current: (SharedDatabase & { close(): Promise<void> }) | undefined;
  if (engine === 'postgres') {
    beforeAll(async () => {
      server = await startPostgres();
    });
    afterAll(async () => {
      await server?.stop();
    });
  }
  beforeEach(async () => {
    current = engine === 'postgres' ? await sharedPostgres(server) : await sharedSqlite();
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

async function sharedSqlite(): Promise<SharedDatabase & { close(): Promise<void> }> {
  const { dir, cleanup } = await tempDir('reelsync-shared-db-');
  const dbs: Db[] = [];
  return {
    connect: () => {
      const db = openServiceDb(join(dir, 'data'));
      dbs.push(db);
      return Promise.resolve(new SqliteSql(db));
    },
    close: async () => {
      for (const db of dbs) db.close();
      await cleanup();
    },
  };
}

async function sharedPostgres(server: TestPostgres | undefined): Promise<SharedDatabase & { close(): Promise<void> }> {
  if (!server) throw new Error('useSharedDatabase: PostgreSQL did not start');
  const url = await server.createDatabase();
  const pools: PgSql[] = [];
  return {
    connect: async () => {
      const sql = await openPgSql(url);
      pools.push(sql);
      return sql;
    },
    close: async () => {
      for (const pool of pools) await pool.close();
    },
  };
}
