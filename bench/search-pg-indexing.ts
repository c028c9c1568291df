import { median } from '../test/helpers/stats';
import { seedSegmentsSql, type SeedText } from '../test/helpers/search-seed';
import type { Sql } from '../src/server/storage/sql';
import type { Figure } from './harness';

const SEGMENTS = 10_000;
const ROUNDS = 3;

/**
 * What the posting lists (migration 19, segment_search_words) cost indexing: the same batches of segments written
 * through the indexer's PostgreSQL writer with their triggers on and off, alternating in one database, as a ratio.
 * `sql` is a migrated database with an account named `account`.
 */
export async function postingIndexingCost(
  sql: Sql,
  account: string,
  textOf: () => (i: number) => SeedText,
): Promise<Figure> {
  const seconds = { with: [] as number[], without: [] as number[] };
  const triggers = async (on: boolean): Promise<void> => {
    for (const t of ['inserted', 'updated', 'deleted'])
      await sql.run(`ALTER TABLE segment_search ${on ? 'ENABLE' : 'DISABLE'} TRIGGER segment_search_words_${t}`);
  };
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const on of [true, false]) {
        await triggers(on);
        const start = performance.now();
        await seedSegmentsSql(sql, account, SEGMENTS, textOf());
        seconds[on ? 'with' : 'without'].push((performance.now() - start) / 1000);
      }
  } finally {
    await triggers(true);
  }
  const [withLists, without] = [median(seconds.with), median(seconds.without)];
  return {
    what: `indexing ${SEGMENTS.toLocaleString('en')} segments on PostgreSQL with the posting lists vs without (their triggers off), ${ROUNDS} alternating rounds`,
    lines: [
      `with: ${withLists.toFixed(1)} s, without: ${without.toFixed(1)} s (median); indexing takes ${(withLists / without).toFixed(2)}x the time`,
    ],
  };
}
