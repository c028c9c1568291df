import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skipPostgresTests } from '../../../../test/helpers/postgres';
import { seedLibrary, useBothDatabases, type Seeded, type SeedVideo } from '../../../../test/helpers/search-engines';

import type { PgSql } from '../../storage/pg-sql';
import { POSTING_COLUMNS, POSTINGS } from '../../storage/pg-migrations/019-segment-search-words';
import type { Sql } from '../../storage/sql';
import type { SqliteSql } from '../../storage/sqlite-sql';
import { parseQuery } from '../query/query-text';
import { videoFullText } from '../segment-index';
import type { SearchField, SegmentFilter, SegmentText } from '../segment-types';
import type { SearchCache } from '../sqlite/search-cache';
import { searchSegments } from '../sqlite/search-segments';
import { searchSegmentsPg } from './pg-segment-search';
import { indexSegmentPg } from './pg-segment-index';
import { scopeOf } from './pg-candidates';
import { newestWordCandidates, PostingPrefetch, wordCandidates } from './pg-word-rank';
import { PhraseHits } from './pg-phrase-hits';

/**
 * segment_search_words (migration 19), the posting lists a search of single words ranks from: kept in step with
 * segment_search through indexing, re-indexing and deleting, per account; and searches from them answer as SQLite's
 * FTS5 does after each of those changes, with and without filters.
 */

const WORDS = ['red', 'car', 'boat', 'harbour', 'night', 'rain', 'crowd', 'bridge', 'dog', 'market'];

function library(seed: number): SeedVideo[] {
  let s = seed;
  const next = (n: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
  const sentence = (n: number): string => Array.from({ length: n }, () => WORDS[next(WORDS.length)]).join(' ');
  return Array.from({ length: 4 }, (_, v) => ({
    name: `clip-${v}.mp4`,
    folder: v % 2 ? 'Odd' : 'Even',
    tags: v === 1 ? ['studio'] : [],
    cameraModel: v === 2 ? 'Sony A7' : undefined,
    segments: Array.from({ length: 12 }, () => ({
      caption: sentence(1 + next(6)),
      transcript: sentence(next(9)),
      ocrText: next(4) === 0 ? sentence(2) : '',
      labels: next(3) === 0 ? [{ label: WORDS[next(WORDS.length)]!, source: 'objects:centernet' }] : [],
    })),
  }));
}

const postingRow = z.object({
  account_id: z.number(),
  lexeme: z.string(),
  segment_id: z.number(),
  video_id: z.number(),
  tokens: z.number(),
  weighted: z.number(),
  in_caption: z.number(),
  in_transcript: z.number(),
});

/** The table's rows beside the rows the migration would write from segment_search as it is now. */
async function postingsAndRebuilt(sql: Sql): Promise<[unknown[], unknown[]]> {
  const order = 'ORDER BY account_id, lexeme, segment_id';
  const kept = await sql.all(`SELECT ${POSTING_COLUMNS} FROM segment_search_words ${order}`);
  const rebuilt = await sql.all(`SELECT ${POSTING_COLUMNS} FROM (${POSTINGS('segment_search')}) p ${order}`);
  return [z.array(postingRow).parse(kept), z.array(postingRow).parse(rebuilt)];
}

describe.skipIf(skipPostgresTests)('segment_search_words: posting lists in step, searches as on SQLite', () => {
  const databases = useBothDatabases();
  let pg: PgSql;
  let lite: SqliteSql;
  let cache: SearchCache;
  const seeded: { lite: Seeded[]; post: Seeded[] } = { lite: [], post: [] };

  beforeAll(async () => {
    ({ pg, lite, cache } = databases());
    for (const [name, seed] of [
      ['alpha', 3],
      ['beta', 11],
    ] as const) {
      seeded.lite.push(await seedLibrary(lite, cache, name, library(seed)));
      seeded.post.push(await seedLibrary(pg, undefined, name, library(seed)));
    }
  }, 120_000);

  /** Every search of this set on both engines, for account `a` (0 or 1): the same hits, order, reasons, scores. */
  async function sameAnswers(a: number, filters: ((s: Seeded) => Partial<SegmentFilter>)[] = [() => ({})]) {
    const queries: [string, SearchField][] = [
      ['red', 'all'],
      ['car boat', 'all'],
      ['harbour night rain', 'all'],
      ['crowd', 'caption'],
      ['bridge dog', 'transcript'],
      ['market red car boat harbour night', 'all'],
    ];
    let hits = 0;
    for (const filter of filters)
      for (const [text, field] of queries) {
        const name = (s: Seeded): Map<number, string> => new Map([...s.segments].map(([n, id]) => [id, n]));
        const run = async (engine: 'lite' | 'post' | 'rows'): Promise<[string | undefined, string, number][]> => {
          const s = seeded[engine === 'rows' ? 'post' : engine][a]!;
          const full = { accountId: s.accountId, ...filter(s) };
          const found =
            engine === 'lite'
              ? searchSegments(cache, parseQuery(text), field, full, 20)
              : await searchSegmentsPg(pg, parseQuery(text), field, full, 20, { postings: engine === 'post' });
          return found.map((h) => [name(s).get(h.segmentId), h.matched, h.score]);
        };
        const [l, p] = [await run('lite'), await run('post')];
        // Ranked from posting lists or from rank rows: the very same hits and scores.
        expect(await run('rows'), `${field}: ${text}`).toEqual(p);
        expect(
          p.map(([n, m]) => [n, m]),
          `${field}: ${text}`,
        ).toEqual(l.map(([n, m]) => [n, m]));
        p.forEach(([, , score], i) => expect(Math.abs(score - l[i]![2])).toBeLessThanOrEqual(0.0001));
        hits += p.length;
      }
    return hits;
  }

  const FILTERS: ((s: Seeded) => Partial<SegmentFilter>)[] = [
    () => ({}),
    (s) => ({ folderId: s.folders.get('Odd') }),
    () => ({ tag: 'studio' }),
    () => ({ cameraModel: 'Sony A7' }),
    (s) => ({ videoNos: [s.videoNos.get('clip-0.mp4')!, s.videoNos.get('clip-3.mp4')!] }),
  ];

  it('holds one row per word per segment, weighted by column, as a rebuild from segment_search would', async () => {
    expect(await sameAnswers(0, FILTERS)).toBeGreaterThan(50);
    const [kept, rebuilt] = await postingsAndRebuilt(pg);
    expect(kept.length).toBeGreaterThan(300);
    expect(kept).toEqual(rebuilt);
    // A segment indexed again in place (the row updated, not deleted first), in an account of its own.
    const gamma = await seedLibrary(pg, undefined, 'gamma', [
      { name: 'one.mp4', folder: 'One', segments: [{ caption: 'boat boat', transcript: 'harbour' }] },
    ]);
    const id = gamma.segments.get('one.mp4#0')!;
    await indexSegmentPg(pg, gamma.accountId, id, text('red car red', 'red dog'));
    const words = z
      .array(postingRow)
      .parse(await pg.all('SELECT * FROM segment_search_words WHERE segment_id = ? ORDER BY lexeme', id));
    expect(words.map((w) => w.lexeme)).toEqual(['car', 'dog', 'red']);
    // 2 in the caption (weight 3), 1 in the transcript (weight 2); 5 words in the row.
    expect(words[2]).toMatchObject({ account_id: gamma.accountId, weighted: 8, in_caption: 2, in_transcript: 1 });
    expect(words[2]!.tokens).toBe(5);
    expect((await postingsAndRebuilt(pg))[0]).toEqual((await postingsAndRebuilt(pg))[1]);
    const hits = await searchSegmentsPg(pg, parseQuery('red'), 'all', { accountId: gamma.accountId }, 5);
    expect(hits.map((h) => h.segmentId)).toEqual([id]);
    expect(await searchSegmentsPg(pg, parseQuery('boat'), 'all', { accountId: gamma.accountId }, 5)).toEqual([]);
  });

  it('reads a search of single words in two round trips: word counts with whole posting lists, then the rows', async () => {
    const statements: string[] = [];
    const counted: Sql = {
      dialect: pg.dialect,
      all: (text, ...params) => (statements.push(text), pg.all(text, ...params)),
      get: (text, ...params) => (statements.push(text), pg.get(text, ...params)),
      run: (text, ...params) => (statements.push(text), pg.run(text, ...params)),
      transaction: (fn) => pg.transaction(fn),
    };
    const accountId = seeded.post[0]!.accountId;
    for (const text of ['red', 'car boat', 'red car boat']) {
      statements.length = 0;
      const hits = await searchSegmentsPg(counted, parseQuery(text), 'all', { accountId }, 20);
      expect(hits.length, text).toBeGreaterThan(0);
      expect(statements, text).toHaveLength(2);
    }
  });

  it('reads whole lists with the counts only when the search will rank from them, and ranks as from its own', async () => {
    const s = seeded.post[0]!;
    const source = { accountId: s.accountId, field: 'all' as const, scope: scopeOf({ accountId: s.accountId }) };
    const prefetchOf = async (phrases: string[][]): Promise<PostingPrefetch> => {
      const prefetch = PostingPrefetch.of(source, phrases)!;
      await new PhraseHits(pg, s.accountId, 'all', () => Promise.resolve(1)).load(phrases, prefetch);
      return prefetch;
    };
    const prefetch = await prefetchOf([['red'], ['boat'], ['zebra', 'crossing']]);
    expect(prefetch.whole(['red', 'boat'])?.every((list) => list.ids.length > 0)).toBe(true);
    // Ranked from the prefetched lists without a statement, as from lists read apart.
    const refuse = (): Promise<never> => Promise.reject(new Error('a statement'));
    const offline: Sql = { dialect: 'postgres', all: refuse, get: refuse, run: refuse, transaction: refuse };
    const lists = { ...source, phraseLexemes: ['red', 'boat'] };
    for (const match of [
      { any: [['red', 'boat']], none: [] },
      { any: [['red']], none: ['boat'] },
    ])
      expect(await wordCandidates({ ...lists, sql: offline, prefetched: prefetch }, match, 1000)).toEqual(
        await wordCandidates({ ...lists, sql: pg }, match, 1000),
      );
    // A phrase of several words found in rows ranks from rank rows: no lists read for it.
    expect((await prefetchOf([['red'], ['boat'], ['red', 'boat']])).whole(['red', 'boat'])).toBeUndefined();
  });

  it('reads the newest rows first as it would read whole lists, however short its first guess', async () => {
    const s = seeded.post[0]!;
    const scope = scopeOf({ accountId: s.accountId });
    const lexemes = ['red', 'car', 'boat', 'night'];
    for (const match of [
      { any: [['red', 'car']], none: [] },
      { any: [['red'], ['boat', 'night']], none: ['car'] },
    ])
      for (const window of [1, 5, 30]) {
        const source = { sql: pg, accountId: s.accountId, field: 'all' as const, scope, phraseLexemes: lexemes };
        const whole = await wordCandidates(source, match, window);
        expect(whole.length).toBeLessThanOrEqual(window);
        expect(whole.length).toBeGreaterThan(0);
        for (const guess of [1, 7, 1000])
          expect(await newestWordCandidates(source, match, window, guess)).toEqual(whole);
      }
  });

  it('follows a video re-indexed with other words, on both engines, and leaves the other account alone', async () => {
    const before = await sameAnswers(1);
    for (const engine of ['lite', 'post'] as const)
      await reindexVideo(engine, 0, 'clip-1.mp4', (i) => text(`harbour night ${i}`, i % 2 ? 'rain crowd' : ''));
    const [kept, rebuilt] = await postingsAndRebuilt(pg);
    expect(kept).toEqual(rebuilt);
    expect(await sameAnswers(0, FILTERS)).toBeGreaterThan(50);
    expect(await sameAnswers(1)).toBe(before);
  });

  it('drops a deleted video’s and a deleted account’s postings, and searches agree after', async () => {
    for (const engine of ['lite', 'post'] as const) {
      const sql = engine === 'lite' ? lite : pg;
      const s = seeded[engine][0]!;
      const videoId = await videoIdOf(sql, s.videoNos.get('clip-2.mp4')!);
      await sql.transaction(async (tx) => {
        await videoFullText.unindex(tx, s.accountId, videoId);
        await tx.run('DELETE FROM segments WHERE video_id = ?', videoId);
      });
    }
    let [kept, rebuilt] = await postingsAndRebuilt(pg);
    expect(kept).toEqual(rebuilt);
    const gone = [...seeded.post[0]!.segments].filter(([n]) => n.startsWith('clip-2.mp4#')).map(([, id]) => id);
    expect(
      await pg.all(
        `SELECT 1 FROM segment_search_words WHERE segment_id IN (${gone.map(() => '?').join(',')})`,
        ...gone,
      ),
    ).toEqual([]);
    expect(await sameAnswers(0, FILTERS)).toBeGreaterThan(30);
    // Segments deleted without unindexing first (the foreign key's cascade) take their postings too.
    await pg.run('DELETE FROM accounts WHERE id = ?', seeded.post[1]!.accountId);
    [kept, rebuilt] = await postingsAndRebuilt(pg);
    expect(kept).toEqual(rebuilt);
    expect(await pg.all('SELECT 1 FROM segment_search_words WHERE account_id = ?', seeded.post[1]!.accountId)).toEqual(
      [],
    );
  });

  function text(caption: string, transcript: string): SegmentText {
    return { caption, transcript, ocrText: '', labels: '', names: '' };
  }

  async function videoIdOf(sql: Sql, videoNo: string): Promise<number> {
    return z.object({ id: z.number() }).parse(await sql.get('SELECT id FROM videos WHERE video_no = ?', videoNo)).id;
  }

  /** A video's segments unindexed and indexed again with new text, as the indexer re-indexes a video. */
  async function reindexVideo(
    engine: 'lite' | 'post',
    a: number,
    video: string,
    textOf: (i: number) => SegmentText,
  ): Promise<void> {
    const s = seeded[engine][a]!;
    const sql = engine === 'lite' ? lite : pg;
    const videoId = await videoIdOf(sql, s.videoNos.get(video)!);
    const ids = [...s.segments].filter(([n]) => n.startsWith(`${video}#`)).map(([, id]) => id);
    await sql.transaction(async (tx) => {
      await videoFullText.unindex(tx, s.accountId, videoId);
      for (const [i, id] of ids.entries()) {
        const t = textOf(i);
        await tx.run('UPDATE segments SET caption = ?, transcript = ? WHERE id = ?', t.caption, t.transcript, id);
        await videoFullText.index(tx, s.accountId, id, t, `${t.caption} ${t.transcript}`);
      }
    });
  }
});
