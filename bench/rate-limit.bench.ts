import { Accounts } from '../src/server/accounts/accounts';
import { RateLimiter } from '../src/server/limits/rate-limiter';
import { openServiceDb } from '../src/server/storage/db';
import { SqliteSql } from '../src/server/storage/sqlite-sql';
import { tempDir } from '../test/helpers/temp';
import { compare, timeBest, type BenchResult, type Benchmark } from './harness';

const TAKES = 20_000;
const ACCOUNTS = 20;

/**
 * `take()` on the shared limiter (SQLite, the embedded default) as every search pays it, against the key lookup every
 * request already pays (`Accounts.authenticate`). The clock is simulated so each account's window holds as many hits
 * as its limit allows: the row is as large as it gets.
 */
async function measure(
  what: string,
  max: number,
  windowMs: number,
  stepMs: number,
): Promise<{ result: BenchResult; perTakeUs: number }> {
  const { dir, cleanup } = await tempDir('reelsync-bench-limits-');
  const db = openServiceDb(dir);
  try {
    const sql = new SqliteSql(db);
    const accounts = new Accounts(sql);
    const keys = await Promise.all(
      Array.from({ length: ACCOUNTS }, async (_, i) =>
        accounts.createKey((await accounts.ensure(`bench-${i}`)).id, 'library'),
      ),
    );
    let now = 1_000_000_000;
    const limiter = new RateLimiter(sql, max, windowMs, () => now);
    let refused = 0;
    const takes = async (): Promise<void> => {
      refused = 0;
      for (let i = 0; i < TAKES; i++) {
        now += stepMs;
        if (await limiter.take(`search:${i % ACCOUNTS}`)) refused++;
      }
    };
    await takes(); // fills every window
    const ours = await timeBest(3, takes);
    const baseline = await timeBest(3, async () => {
      for (let i = 0; i < TAKES; i++) await accounts.authenticate(keys[i % ACCOUNTS] ?? '', 'library');
    });
    return {
      result: compare(
        `${what}: ${((refused / TAKES) * 100).toFixed(0)}% of takes refused`,
        { label: 'RateLimiter.take (shared)', seconds: ours, amount: TAKES, unit: 'takes' },
        { label: 'Accounts.authenticate', seconds: baseline, amount: TAKES, unit: 'lookups' },
        'a take within 0.2 ms',
      ),
      perTakeUs: (ours / TAKES) * 1e6,
    };
  } finally {
    db.close();
    await cleanup();
  }
}

const bench: Benchmark = {
  name: 'rate-limit',
  description: `shared rate limiter on SQLite: ${TAKES.toLocaleString('en')} takes over ${ACCOUNTS} accounts`,
  async run() {
    const search = await measure('search limit (50/s), every window full', 50, 1000, 0.4);
    const uploads = await measure('upload limit (600/min), every window full (the largest row)', 600, 60_000, 4);
    return [
      search.result,
      uploads.result,
      {
        what: 'time per take',
        lines: [
          `search limit: ${search.perTakeUs.toFixed(1)} µs per take`,
          `upload limit: ${uploads.perTakeUs.toFixed(1)} µs per take`,
        ],
      },
    ];
  },
};

export default bench;
