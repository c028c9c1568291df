import { Accounts } from '../src/server/accounts/accounts';
import { RateLimiter } from '../src/server/limits/rate-limiter';
import { openServiceDb } from '../src/server/storage/db';
import { openPgSql } from '../src/server/storage/open-pg-sql';
import type { Sql } from '../src/server/storage/sql';
import { SqliteSql } from '../src/server/storage/sqlite-sql';
import { postgresBinDir, startPostgres } from '../test/helpers/postgres';
import { tempDir } from '../test/helpers/temp';
import { compare, timeBest, type BenchResult, type Benchmark } from './harness';

const TAKES = Number(process.env.RATE_LIMIT_TAKES ?? 20_000);
const ACCOUNTS = 20;
/** Each account takes every 8 ms: 125 a second against 50 allowed (the window stays full). */
const SEARCH = { max: 50, windowMs: 1000, stepMs: 0.4 };
/** Each account takes every 80 ms: 750 a minute against 600 allowed (a full window is the largest row: 600 hits). */
const UPLOAD = { max: 600, windowMs: 60_000, stepMs: 4 };

/**
 * `take()` on the shared limiter (SQLite, the embedded default) as every search pays it, against the key lookup every
 * request already pays (`Accounts.authenticate`). The clock is simulated so each account's window holds as many hits
 * as its limit allows: the row is as large as it gets.
 */
async function measure(
  open: () => Promise<{ sql: Sql; close: () => Promise<void> }>,
  what: string,
  {
    max,
    windowMs,
    stepMs,
    takes,
    goal,
  }: { max: number; windowMs: number; stepMs: number; takes: number; goal: string },
): Promise<{ result: BenchResult; perTakeUs: number }> {
  const { sql, close } = await open();
  try {
    const accounts = new Accounts(sql);
    const keys = await Promise.all(
      Array.from({ length: ACCOUNTS }, async (_, i) =>
        accounts.createKey((await accounts.ensure(`bench-${i}`)).id, 'library'),
      ),
    );
    let now = 1_000_000_000;
    const limiter = new RateLimiter(sql, max, windowMs, () => now);
    let refused = 0;
    const takeAll = async (): Promise<void> => {
      refused = 0;
      for (let i = 0; i < takes; i++) {
        now += stepMs;
        if (await limiter.take(`search:${i % ACCOUNTS}`)) refused++;
      }
    };
    await takeAll(); // fills every window
    const ours = await timeBest(3, takeAll);
    const baseline = await timeBest(3, async () => {
      for (let i = 0; i < takes; i++) await accounts.authenticate(keys[i % ACCOUNTS] ?? '', 'library');
    });
    return {
      result: compare(
        `${what}: ${((refused / takes) * 100).toFixed(0)}% of takes refused`,
        { label: 'RateLimiter.take (shared)', seconds: ours, amount: takes, unit: 'takes' },
        { label: 'Accounts.authenticate', seconds: baseline, amount: takes, unit: 'lookups' },
        goal,
      ),
      perTakeUs: (ours / takes) * 1e6,
    };
  } finally {
    await close();
  }
}

async function openSqlite(): Promise<{ sql: Sql; close: () => Promise<void> }> {
  const { dir, cleanup } = await tempDir('reelsync-bench-limits-');
  const db = openServiceDb(dir);
  return {
    sql: new SqliteSql(db),
    close: async () => {
      db.close();
      await cleanup();
    },
  };
}

const bench: Benchmark = {
  name: 'rate-limit',
  description: `shared rate limiter: ${TAKES.toLocaleString('en')} takes over ${ACCOUNTS} accounts, on SQLite (and PostgreSQL where installed)`,
  async run() {
    const goal = 'a take within 0.2 ms';
    const search = await measure(openSqlite, 'SQLite, search limit (50/s)', {
      ...SEARCH,
      takes: TAKES,
      goal,
    });
    const uploads = await measure(openSqlite, 'SQLite, upload limit (600/min)', {
      ...UPLOAD,
      takes: TAKES,
      goal,
    });
    const results: BenchResult[] = [search.result, uploads.result];
    const lines = [
      `SQLite, search limit: ${search.perTakeUs.toFixed(1)} µs per take`,
      `SQLite, upload limit: ${uploads.perTakeUs.toFixed(1)} µs per take`,
    ];
    if (postgresBinDir) {
      const server = await startPostgres();
      try {
        const openPg = async () => {
          const sql = await openPgSql(await server.createDatabase());
          return { sql, close: () => sql.close() };
        };
        const pgSearch = await measure(openPg, 'PostgreSQL (local), search limit (50/s)', {
          ...SEARCH,
          takes: Math.ceil(TAKES / 4),
          goal: 'about one query: a take is a read and a write',
        });
        results.push(pgSearch.result);
        lines.push(`PostgreSQL (local), search limit: ${pgSearch.perTakeUs.toFixed(1)} µs per take`);
      } finally {
        await server.stop();
      }
    }
    return [...results, { what: 'time per take', lines }];
  },
};

export default bench;
