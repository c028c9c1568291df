import { afterEach, beforeEach } from 'vitest';
import { openServiceDb } from '../../src/server/storage/db';
import { openPgSql } from '../../src/server/storage/open-pg-sql';
import type { Sql, SqlDialect } from '../../src/server/storage/sql';
import { SqliteSql } from '../../src/server/storage/sqlite-sql';
import { usePostgresServer } from './service-sql';
import { tempDir } from './temp';

export interface SharedDatabase {
  /**
   * Another connection to this test's database, migrated, as another API process would open it: a better-sqlite3
   * connection to the same file, or a pg pool of its own. Closed after the test.
   */
  connect(): Promise<Sql>;
  /** The SQLite data folder (for child processes); undefined on PostgreSQL. */
  readonly dataDir: string | undefined;
}

/** One fresh service database per test on `engine`, that tests open as many times as they need (`connect`). */
export function useSharedDatabase(engine: SqlDialect): SharedDatabase {
  const server = usePostgresServer(engine);
  let place: { dataDir?: string; url?: string; cleanup?: () => Promise<void> } = {};
  const closers: (() => Promise<void> | void)[] = [];
  beforeEach(async () => {
    if (engine === 'postgres') {
      const started = server();
      if (!started) throw new Error('PostgreSQL did not start');
      place = { url: await started.createDatabase() };
    } else {
      const { dir, cleanup } = await tempDir('reelsync-shared-db-');
      place = { dataDir: dir, cleanup };
    }
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await place.cleanup?.();
    place = {};
  });
  return {
    async connect() {
      if (place.url) {
        const sql = await openPgSql(place.url);
        closers.push(() => sql.close());
        return sql;
      }
      if (!place.dataDir) throw new Error('useSharedDatabase: connect inside a test');
      const db = openServiceDb(place.dataDir);
      closers.push(() => {
        db.close();
      });
      return new SqliteSql(db);
    },
    get dataDir() {
      return place.dataDir;
    },
  };
}
