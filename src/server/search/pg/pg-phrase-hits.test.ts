import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../../../../test/helpers/postgres';
import { seedLibrary, type Seeded, type SeedVideo } from '../../../../test/helpers/search-engines';
import { pgMigrations } from '../../storage/pg-migrations';
import { migratePg } from '../../storage/pg-migrations/migrate';
import { PgSql } from '../../storage/pg-sql';
import type { Sql } from '../../storage/sql';
import type { SearchField } from '../segment-types';
import { accountTotals, PhraseHits } from './pg-phrase-hits';
import { indexSegmentPg, unindexVideoPg } from './pg-segment-index';

/**
 * The per-account counts of migration 16 (segment_search_totals, segment_search_terms) against a recount from
 * segment_search itself, after every way its rows change, and PhraseHits against a count through the GIN index.
 */

const video = (name: string, captions: string[], transcripts: string[] = []): SeedVideo => ({
  name,
  folder: 'F',
  segments: captions.map((caption, i) => ({ caption, transcript: transcripts[i] ?? '' })),
});

const LIBRARY: SeedVideo[] = [
  video('a.mp4', ['A red car on the bridge', 'The red boat'], ['car car car', 'nothing here']),
  video('b.mp4', ['Dogs running in the rain', 'A bridge at night'], ['the dog barks', 'red lights']),
];

const termsRow = z.object({
  lexeme: z.string(),
  in_any: z.number(),
  in_caption: z.number(),
  in_transcript: z.number(),
});

/** The account's counts as migration 16 keeps them (rows counted down to zero left out). */
async function kept(sql: Sql, accountId: number): Promise<unknown> {
  const terms = z.array(termsRow).parse(
    await sql.all(
      `SELECT lexeme, in_any, in_caption, in_transcript FROM segment_search_terms
         WHERE account_id = ? AND (in_any <> 0 OR in_caption <> 0 OR in_transcript <> 0) ORDER BY lexeme`,
      accountId,
    ),
  );
  return { totals: await accountTotals(sql, accountId), terms };
}

/** The same counts recounted from segment_search. */
async function recounted(sql: Sql, accountId: number): Promise<unknown> {
  const totals = z
    .object({ rows: z.number(), tokens: z.number() })
    .parse(
      await sql.get(
        'SELECT COUNT(*) AS rows, CAST(COALESCE(SUM(tokens), 0) AS BIGINT) AS tokens FROM segment_search WHERE account_id = ?',
        accountId,
      ),
    );
  const terms = z.array(termsRow).parse(
    await sql.all(
      `SELECT l.lexeme, COUNT(*) AS in_any,
         COUNT(*) FILTER (WHERE l.lexeme = ANY (tsvector_to_array(s.caption_tsv))) AS in_caption,
         COUNT(*) FILTER (WHERE l.lexeme = ANY (tsvector_to_array(s.transcript_tsv))) AS in_transcript
       FROM segment_search s, unnest(tsvector_to_array(s.document)) AS l(lexeme)
       WHERE s.account_id = ? GROUP BY l.lexeme ORDER BY l.lexeme`,
      accountId,
    ),
  );
  return { totals, terms };
}

const idRow = z.object({ id: z.number() });

describe.skipIf(skipPostgresTests)('segment search counts on PostgreSQL (migration 16)', () => {
  let server: TestPostgres;
  let sql: PgSql;
  let one: Seeded;
  let two: Seeded;

  beforeAll(async () => {
    server = await startPostgres();
    sql = new PgSql(await server.createDatabase());
    // Rows written before migration 16 are counted by it.
    await migratePg(sql, pgMigrations.slice(0, 14));
    one = await seedLibrary(sql, undefined, 'one', LIBRARY);
    await migratePg(sql, pgMigrations);
    two = await seedLibrary(sql, undefined, 'two', [video('c.mp4', ['red red car'], ['a bridge'])]);
  }, 120_000);
  afterAll(async () => {
    await sql?.close();
    await server?.stop();
  });

  const expectExact = async (): Promise<void> => {
    for (const account of [one, two])
      expect(await kept(sql, account.accountId)).toEqual(await recounted(sql, account.accountId));
  };

  it('counts the rows written before the migration and after it, per account', async () => {
    await expectExact();
    expect(await accountTotals(sql, one.accountId)).toMatchObject({ rows: 4 });
    expect(await accountTotals(sql, two.accountId)).toMatchObject({ rows: 1 });
    expect(await accountTotals(sql, 999)).toEqual({ rows: 0, tokens: 0 });
  });

  it('follows a segment indexed again with other text, a video unindexed, and segments deleted', async () => {
    const segmentId = one.segments.get('a.mp4#0')!;
    await indexSegmentPg(sql, one.accountId, segmentId, {
      caption: 'A helicopter over the harbour',
      transcript: 'red red red',
      ocrText: 'SCENE 4',
      labels: 'helicopter',
      names: 'a.mp4',
    });
    await expectExact();
    const b = await videoId(one, 'b.mp4');
    await sql.transaction((tx) => unindexVideoPg(tx, one.accountId, b));
    await expectExact();
    await sql.run('DELETE FROM segments WHERE video_id = ?', await videoId(one, 'a.mp4'));
    await expectExact();
    expect(await accountTotals(sql, one.accountId)).toEqual({ rows: 0, tokens: 0 });
    expect(await accountTotals(sql, two.accountId)).toMatchObject({ rows: 1 });
  });

  it('leaves the counts alone when the transaction that wrote rows rolls back', async () => {
    const before = await kept(sql, two.accountId);
    const c = await videoId(two, 'c.mp4');
    await expect(
      sql.transaction(async (tx) => {
        await unindexVideoPg(tx, two.accountId, c);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await kept(sql, two.accountId)).toEqual(before);
  });

  it('lets concurrent indexing transactions of one account all commit, with exact counts', async () => {
    const three = await seedLibrary(sql, undefined, 'three', [video('d.mp4', [])]);
    const videoNo = three.videoNos.get('d.mp4')!;
    const segmentIds = z
      .array(idRow)
      .parse(
        await sql.all(
          `INSERT INTO segments (video_id, idx, start_time, end_time, caption)
           SELECT v.id, g, g, g + 1, '' FROM videos v, generate_series(0, 59) g WHERE v.video_no = ? RETURNING id`,
          videoNo,
        ),
      )
      .map((r) => r.id);
    const words = ['zebra', 'apple', 'mango', 'kiwi', 'lemon', 'yak'];
    // Six transactions, each indexing ten segments one statement (one word) at a time, half of them in the opposite
    // order: counted row by row, the first would wait for the second's "zebra" while it waits for the first's "apple".
    await Promise.all(
      Array.from({ length: 6 }, (_, t) =>
        sql.transaction(async (tx) => {
          for (let k = 0; k < 10; k++) {
            const order = t % 2 ? [...words].reverse() : words;
            await indexSegmentPg(tx, three.accountId, segmentIds[t * 10 + k]!, {
              caption: order[k % 6]!,
              transcript: order[(k + 1) % 6]!,
              ocrText: '',
              labels: '',
              names: '',
            });
          }
        }),
      ),
    );
    expect(await kept(sql, three.accountId)).toEqual(await recounted(sql, three.accountId));
    expect(await accountTotals(sql, three.accountId)).toMatchObject({ rows: 60 });
  });

  it('gives each field the rows a GIN count finds, and a phrase none when a word of it is in no row', async () => {
    const gin = (accountId: number, tsquery: string, column: string): Promise<number> =>
      sql
        .get(
          `SELECT COUNT(*) AS n FROM segment_search WHERE account_id = ? AND ${column} @@ CAST(? AS tsquery)`,
          accountId,
          tsquery,
        )
        .then((r) => z.object({ n: z.number() }).parse(r).n);
    const counted: string[][] = [];
    const columns: Record<SearchField, string> = {
      all: 'document',
      caption: 'caption_tsv',
      transcript: 'transcript_tsv',
    };
    for (const field of ['all', 'caption', 'transcript'] as const) {
      const hits = new PhraseHits(sql, two.accountId, field, (words) => {
        counted.push(words);
        return Promise.resolve(7);
      });
      await hits.load([['red'], ['bridge'], ['cars'], ['absent'], ['red', 'car'], ['red', 'absent']]);
      expect(hits.of(['red'])).toBe(await gin(two.accountId, 'red', columns[field]));
      expect(hits.of(['bridge'])).toBe(await gin(two.accountId, 'bridg', columns[field]));
      expect(hits.of(['cars'])).toBe(await gin(two.accountId, 'car', columns[field]));
      expect(hits.of(['absent'])).toBe(0);
      expect(hits.of(['red', 'absent'])).toBe(0);
      expect(() => hits.of(['never', 'loaded'])).toThrow(/not loaded/);
    }
    expect(counted).toEqual([
      ['red', 'car'],
      ['red', 'car'],
    ]);
  });

  async function videoId(seeded: Seeded, name: string): Promise<number> {
    return idRow.parse(await sql.get('SELECT id FROM videos WHERE video_no = ?', seeded.videoNos.get(name)!)).id;
  }
});
