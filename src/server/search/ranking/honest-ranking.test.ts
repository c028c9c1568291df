import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unmatchedWords } from '../../../shared/api-types';
import { seedLibrary, type Seeded, type SeedVideo } from '../../../../test/helpers/search-engines';
import { tempDir } from '../../../../test/helpers/temp';
import { openServiceDb } from '../../storage/db';
import { SqliteSql } from '../../storage/sqlite-sql';
import { withSpoken } from '../library-search';
import { parseQuery } from '../query/query-text';
import { clipItem } from '../result-items';
import { SearchCache } from '../sqlite/search-cache';
import { searchSegments } from '../sqlite/search-segments';
import type { SearchField, SegmentHit } from '../segment-types';
import { fuseSemantic } from './semantic-fusion';

/**
 * Ranking that says what it did (issue 30 item 3), on a library indexed by the engine's own index writer (FTS5): whole
 * matches above partial ones, the words nothing matched, ties set apart by the evidence, speech counted in the default
 * search as in BY_AUDIO, and a dark shot never found by its look.
 */

const car = (score: number, caption = 'A car parked on a street'): SeedVideo['segments'][number] => ({
  caption,
  labels: [{ label: 'car', source: 'objects:centernet', score }],
});

const LIBRARY: SeedVideo[] = [
  // Six "car" shots, detected with different confidences, in an order that is not theirs.
  { name: 'street.mp4', folder: 'Takes', segments: [car(0.55), car(0.92), car(0.41), car(0.78), car(0.66), car(0.87)] },
  {
    name: 'crash-test.mp4',
    folder: 'Takes',
    segments: [
      // "crash" said many times over (a strong bm25), no car.
      { caption: 'A wall', transcript: 'crash crash crash' },
      // Every word, the smoke seen only as a grey twentieth of the frame: the one whole match, with a weak bm25.
      {
        caption: 'A long slow shot of a quiet town square at dusk with a car crash far away behind the fountain',
        labels: [{ label: 'smoke', source: 'colour:region', score: 0.05 }],
      },
      // The other words, said and shown over and over: a strong partial match.
      { caption: 'Car crash, car crash', transcript: 'car crash car crash car crash', ocrText: 'CAR CRASH' },
      { caption: 'Tanker collision, fire', transcript: 'tanker collision fire at the harbour, tanker collision fire' },
      {
        caption: 'A wide view of the bay at noon, with a tanker collision and a fire by the far harbour pier',
        labels: [{ label: 'smoke', source: 'colour:region', score: 0.05 }],
      },
    ],
  },
  {
    name: 'interview.mp4',
    folder: 'Takes',
    segments: [
      // A dark clip in which someone speaks: nothing seen.
      {
        caption: 'Speech only',
        transcript: 'we should head back before the storm reaches the harbour tonight',
        labels: [
          { label: 'black', source: 'colour:frame', score: 0.9 },
          { label: 'dark', source: 'colour:frame', score: 0.8 },
        ],
      },
      // A shot that shows the words of the phrase, strongly (caption, labels).
      {
        caption: 'Storm clouds over the harbour, boats head back',
        labels: [
          { label: 'boat', source: 'objects:centernet', score: 0.9 },
          { label: 'storm', source: 'objects:centernet', score: 0.9 },
        ],
      },
      { caption: 'A red car by the harbour', labels: [{ label: 'red car', source: 'colour:object', score: 0.8 }] },
    ],
  },
];

describe('ranking that says what it did', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let db: ReturnType<typeof openServiceDb>;
  let sql: SqliteSql;
  let cache: SearchCache;
  let seeded: Seeded;

  beforeAll(async () => {
    dir = await tempDir('reelsync-honest-ranking-');
    db = openServiceDb(dir.dir);
    sql = new SqliteSql(db);
    cache = new SearchCache(db);
    seeded = await seedLibrary(sql, cache, 'editor', LIBRARY);
  });
  afterAll(async () => {
    db?.close();
    await dir?.cleanup();
  });

  const search = (text: string, field: SearchField = 'all', limit = 20): SegmentHit[] =>
    searchSegments(cache, parseQuery(text), field, { accountId: seeded.accountId }, limit);
  const id = (key: string): number => seeded.segments.get(key)!;

  it('ranks the one hit with every word above partial ones, whatever their bm25', () => {
    const hits = search('tanker collision fire harbour smoke');
    expect(hits.slice(0, 2).map((h) => h.segmentId)).toEqual([id('crash-test.mp4#4'), id('crash-test.mp4#3')]);
    expect(hits.slice(0, 2).map((h) => h.missing)).toEqual([[], ['smoke']]);
    expect(hits[1]!.score).toBeLessThan(hits[0]!.score);
  });

  it('says which word partial hits lack', () => {
    const hits = search('car crash');
    expect(hits.slice(0, 2).map((h) => h.segmentId)).toEqual([id('crash-test.mp4#2'), id('crash-test.mp4#1')]);
    for (const h of hits.slice(0, 2)) expect(h.missing).toEqual([]);
    for (const h of hits.slice(2)) expect(h.missing.length).toBe(1);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThan(hits[i - 1]!.score);
    // Without the whole match, the car shots all lack "crash" and the crash take lacks "car": nothing is unmatched.
    const partial = hits.slice(2).map((h) => clipItem(h, true));
    expect(unmatchedWords(partial)).toEqual([]);
    const carsOnly = partial.filter((c) => c.videoNo === seeded.videoNos.get('street.mp4'));
    expect(carsOnly).toHaveLength(6);
    expect(unmatchedWords(carsOnly)).toEqual(['crash']);
  });

  it('says "no match for" the words that no hit matched', () => {
    const hits = search('car explosion');
    expect(hits.length).toBeGreaterThan(0);
    const items = hits.map((h) => clipItem(h, true));
    expect(unmatchedWords(items)).toEqual(['explosion']);
    expect(items.every((i) => i.missing?.includes('explosion'))).toBe(true);
  });

  it('sets equal scores apart by the detector confidence of what matched, never leaving them equal', () => {
    const cars = search('car').filter((h) => h.videoNo === seeded.videoNos.get('street.mp4'));
    expect(cars.map((h) => h.segmentId)).toEqual(
      [1, 5, 3, 4, 0, 2].map((i) => id(`street.mp4#${i}`)), // 0.92, 0.87, 0.78, 0.66, 0.55, 0.41
    );
    expect(new Set(cars.map((h) => h.score)).size).toBe(cars.length);
  });

  it('counts a near-verbatim spoken phrase in the default search as strongly as in BY_AUDIO', () => {
    const phrase = 'head back before the storm reaches the harbor';
    const spoken = search(phrase, 'transcript', 5);
    const speech = spoken.find((h) => h.segmentId === id('interview.mp4#0'));
    expect(speech).toBeDefined();
    const byClip = withSpoken(search(phrase, 'all', 5), spoken, 5);
    const found = byClip.find((h) => h.segmentId === id('interview.mp4#0'));
    expect(found?.score).toBeGreaterThanOrEqual(speech!.score);
    expect(byClip[0]!.segmentId).toBe(id('interview.mp4#0'));
  });

  it('never lets a dark shot rank for visual words through its look, only through what it says', async () => {
    const model = 'test-model';
    const dark = id('interview.mp4#0');
    const redCar = id('interview.mp4#2');
    // The dark frame's embedding is the query's own (the worst case: a model that finds darkness near everything).
    const query = [1, 0, 0, 0];
    const insert = db.prepare('INSERT INTO segment_embeddings (segment_id, model, vector) VALUES (?, ?, ?)');
    insert.run(dark, model, Buffer.from(new Float32Array([1, 0, 0, 0]).buffer));
    insert.run(redCar, model, Buffer.from(new Float32Array([0.8, 0.6, 0, 0]).buffer));
    const request = {
      text: 'red car',
      field: 'all' as const,
      filter: { accountId: seeded.accountId },
      limit: 10,
      semantic: { model, vector: query, floor: 0.2, ceiling: 0.9 },
    };
    const fused = await fuseSemantic(sql, request, search('red car', 'all', 10));
    expect(fused.map((h) => h.segmentId)).not.toContain(dark);
    expect(fused[0]!.segmentId).toBe(redCar);
    // Saying the words still finds it.
    const said = await fuseSemantic(sql, { ...request, text: 'storm' }, search('storm', 'all', 10));
    expect(said.find((h) => h.segmentId === dark)?.matched).not.toContain('looks like');
  });
});
