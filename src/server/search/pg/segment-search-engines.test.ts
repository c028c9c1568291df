import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skipPostgresTests } from '../../../../test/helpers/postgres';
import { seedLibrary, useBothDatabases, type Seeded, type SeedVideo } from '../../../../test/helpers/search-engines';
import type { Db } from '../../storage/db';
import type { PgSql } from '../../storage/pg-sql';
import { parseQuery } from '../query/query-text';
import { searchSegments } from '../sqlite/search-segments';
import type { SearchField, SegmentFilter, SegmentHit } from '../segment-types';
import { PgSegmentSearch, searchSegmentsPg } from './pg-segment-search';
import { unindexVideoPg } from './pg-segment-index';

/**
 * The same library seeded on SQLite (FTS5) and PostgreSQL (segment_search), each through its engine's index writer,
 * and the same searches on both: the same hits in the same order, the same `matched`, the same scores (to their
 * rounding, 0.0001).
 */

const LISBON = { latitude: 38.72, longitude: -9.14 };
const filler = (n: number): SeedVideo['segments'] =>
  Array.from({ length: n }, (_, i) => ({ caption: `An empty quiet room number ${i}`, transcript: 'silence' }));

const LIBRARY_A: SeedVideo[] = [
  {
    name: 'harbour-drive.mp4',
    folder: 'Boats',
    cameraModel: 'Sony A7',
    takenAt: '2023-06-01T10:00:00Z',
    place: LISBON,
    tags: ['sunset'],
    segments: [
      {
        caption: 'A red car drives along the harbour',
        transcript: 'we are driving the red car today',
        ocrText: 'SCENE 12',
        labels: [
          { label: 'car', source: 'objects:centernet' },
          { label: 'red car', source: 'colour:object' },
        ],
      },
      {
        caption: 'Two people walking on the beach',
        transcript: 'the weather is lovely',
        labels: [
          { label: 'two people', source: 'people:count' },
          { label: 'person', source: 'objects:centernet' },
        ],
      },
      {
        caption: 'A helicopter flies over the city',
        transcript: 'listen to that helicopter',
        labels: [{ label: 'pan', source: 'motion:camera' }],
      },
    ],
  },
  {
    name: 'interview.mov',
    folder: 'Interviews',
    cameraModel: 'Canon R5',
    takenAt: '2024-03-01T10:00:00Z',
    place: { latitude: 52.52, longitude: 13.4 },
    tags: ['studio'],
    segments: [
      {
        caption: 'A woman talks to the camera',
        transcript: 'the budget for the harbour project is approved',
        ocrText: 'BUDGET 2024',
      },
      { caption: 'Close-up of a microphone', transcript: 'running late again, the car broke down' },
      {
        caption: 'A blue car parked outside',
        labels: [
          { label: 'blue', source: 'colour:frame', score: 0.4 },
          { label: 'car', source: 'objects:centernet' },
        ],
      },
    ],
  },
  { name: 'rooms.mp4', folder: 'Boats', segments: filler(12) },
];

const LIBRARY_B: SeedVideo[] = [
  {
    name: 'other.mp4',
    folder: 'Theirs',
    segments: [
      { caption: 'A yellow submarine under water', transcript: 'the helicopter and the red car' },
      { caption: 'A red car and a helicopter', transcript: 'harbour budget' },
    ],
  },
];

interface Engine {
  a: Seeded;
  b: Seeded;
  search(text: string, field: SearchField, filter: SegmentFilter, limit?: number): Promise<SegmentHit[]>;
}

describe.skipIf(skipPostgresTests)('segment search: the same answers on SQLite and PostgreSQL', () => {
  const databases = useBothDatabases();
  let pg: PgSql;
  let sqliteDb: Db;
  let sqlite: Engine;
  let postgres: Engine;

  beforeAll(async () => {
    const { cache, lite } = databases();
    ({ pg, db: sqliteDb } = databases());
    sqlite = {
      a: await seedLibrary(lite, cache, 'alpha', LIBRARY_A),
      b: await seedLibrary(lite, cache, 'beta', LIBRARY_B),
      search: (text, field, filter, limit = 20) =>
        Promise.resolve(searchSegments(cache, parseQuery(text), field, filter, limit)),
    };
    postgres = {
      a: await seedLibrary(pg, undefined, 'alpha', LIBRARY_A),
      b: await seedLibrary(pg, undefined, 'beta', LIBRARY_B),
      search: (text, field, filter, limit = 20) => searchSegmentsPg(pg, parseQuery(text), field, filter, limit),
    };
  }, 120_000);

  /** A hit as both engines must agree on it, by segment name (ids differ between the two databases). */
  const named = (engine: Engine, hits: SegmentHit[]): { segment: string; score: number; matched: string }[] => {
    const byId = new Map([...engine.a.segments, ...engine.b.segments].map(([name, id]) => [id, name]));
    return hits.map((h) => ({
      segment: byId.get(h.segmentId) ?? `?${h.segmentId}`,
      score: h.score,
      matched: h.matched,
    }));
  };

  /** Runs a search on both engines; expects the same hits, reasons and (within 0.0001) scores; returns them. */
  async function both(
    text: string,
    field: SearchField = 'all',
    filter: (s: Seeded) => Partial<SegmentFilter> = () => ({}),
  ): Promise<{ segment: string; score: number; matched: string }[]> {
    const lite = named(
      sqlite,
      await sqlite.search(text, field, { accountId: sqlite.a.accountId, ...filter(sqlite.a) }),
    );
    const post = named(
      postgres,
      await postgres.search(text, field, { accountId: postgres.a.accountId, ...filter(postgres.a) }),
    );
    expect(post.map((h) => [h.segment, h.matched])).toEqual(lite.map((h) => [h.segment, h.matched]));
    post.forEach((h, i) => expect(Math.abs(h.score - lite[i]!.score)).toBeLessThanOrEqual(0.0001));
    return lite;
  }

  it('ranks a content search the same, with the same reasons and scores', async () => {
    const hits = await both('red car');
    expect(hits[0]).toMatchObject({ segment: 'harbour-drive.mp4#0' });
    expect(hits[0]!.matched).toContain('colour: red car');
    expect(hits.map((h) => h.segment)).toEqual(expect.arrayContaining(['interview.mov#1', 'interview.mov#2']));
    expect((await both('helicopter'))[0]!.segment).toBe('harbour-drive.mp4#2');
    expect((await both('two people'))[0]!.matched).toContain('people: two people');
    expect((await both('"red car"')).length).toBeGreaterThan(0);
    // tsquery's own syntax in a query is only words to search; a word longer than PostgreSQL indexes finds nothing.
    expect((await both("red' & !car:* | (helicopter")).map((h) => h.segment)).toContain('harbour-drive.mp4#2');
    expect(await both(`car${'x'.repeat(3000)}`)).toEqual([]);
  });

  it('stems, searches one column, and ranks names-only hits last the same way', async () => {
    expect((await both('run')).map((h) => h.segment)).toEqual(['interview.mov#1']);
    expect((await both('budget', 'transcript')).map((h) => h.segment)).toEqual(['interview.mov#0']);
    expect((await both('car', 'caption')).map((h) => h.segment).sort()).toEqual([
      'harbour-drive.mp4#0',
      'interview.mov#2',
    ]);
    const harbour = await both('harbour');
    expect(
      harbour
        .slice(0, 2)
        .map((h) => h.segment)
        .sort(),
    ).toEqual(['harbour-drive.mp4#0', 'interview.mov#0']);
    expect(harbour.at(-1)!.matched).toBe('file name');
    const sunset = await both('sunset');
    expect(sunset.every((h) => h.matched === 'file name')).toBe(true);
    expect(sunset).toHaveLength(3);
  });

  it('ranks words in half the segments or more (bm25 says nothing) the same way', async () => {
    const hits = await both('quiet room');
    expect(hits).toHaveLength(12);
    expect(hits[0]!.score).toBeGreaterThan(0.7);
  });

  it('applies every filter the same way', async () => {
    const inBoats = await both('car', 'all', (s) => ({ folderId: s.folders.get('Boats') }));
    expect(inBoats.map((h) => h.segment)).toEqual(['harbour-drive.mp4#0']);
    expect((await both('car', 'all', () => ({ tag: 'studio' }))).map((h) => h.segment).sort()).toEqual([
      'interview.mov#1',
      'interview.mov#2',
    ]);
    expect(await both('car', 'all', () => ({ cameraModel: 'Sony A7' }))).toHaveLength(1);
    expect(await both('car', 'all', () => ({ takenSince: '2024-01-01' }))).toHaveLength(2);
    expect(await both('car', 'all', () => ({ near: { ...LISBON, radiusKm: 50 } }))).toHaveLength(1);
    expect(
      (await both('car', 'all', (s) => ({ videoNos: [s.videoNos.get('interview.mov')!] }))).map((h) => h.segment),
    ).toHaveLength(2);
  });

  it('leaves out a video being indexed again or failed, with or without other filters, the same way', async () => {
    const setStatus = async (status: string): Promise<void> => {
      sqliteDb
        .prepare('UPDATE videos SET status = ? WHERE video_no = ?')
        .run(status, sqlite.a.videoNos.get('interview.mov'));
      await pg.run(
        'UPDATE videos SET status = ? WHERE video_no = ?',
        status,
        postgres.a.videoNos.get('interview.mov')!,
      );
    };
    const everyCar = (await both('car')).map((h) => h.segment);
    expect(everyCar).toContain('interview.mov#1');
    try {
      for (const status of ['UNPARSE', 'FAIL']) {
        await setStatus(status);
        expect(await both('budget')).toEqual([]);
        expect(await both('car', 'all', () => ({ tag: 'studio' }))).toEqual([]);
        const cars = (await both('car')).map((h) => h.segment);
        expect(cars).toEqual(everyCar.filter((s) => !s.startsWith('interview.mov#')));
        expect(cars.length).toBeGreaterThan(0);
      }
    } finally {
      await setStatus('PARSE');
    }
    expect(await both('budget')).toHaveLength(1);
  });

  it("never returns another account's segments, also not as a fuzzy match", async () => {
    const aIds = new Set(postgres.a.segments.values());
    const bIds = new Set(postgres.b.segments.values());
    for (const text of ['red car', 'helicopter', 'harbour budget', 'submarine', 'submarin', 'yellow'])
      for (const hit of await postgres.search(text, 'all', { accountId: postgres.a.accountId }))
        expect(bIds.has(hit.segmentId)).toBe(false);
    expect(await postgres.search('submarin', 'all', { accountId: postgres.a.accountId })).toEqual([]);
    const theirs = await postgres.search('red car helicoptr', 'all', { accountId: postgres.b.accountId });
    expect(theirs.length).toBe(2);
    for (const hit of theirs) expect(aIds.has(hit.segmentId)).toBe(false);
    // Scores come from the caller's own segments: account B's alone.
    await both('submarine');
  });

  it('finds a typo or a piece of a word on PostgreSQL (trigrams), where SQLite finds nothing', async () => {
    const filter = { accountId: postgres.a.accountId };
    for (const text of ['helicoptr', 'copter']) {
      const hits = await postgres.search(text, 'all', filter);
      expect(hits[0]?.segmentId).toBe(postgres.a.segments.get('harbour-drive.mp4#2'));
      expect(hits[0]!.matched).toContain('helicopter');
      expect(await sqlite.search(text, 'all', { accountId: sqlite.a.accountId })).toEqual([]);
    }
    // A typo beside a real word: the real word's hits stay, the typo adds its nearest word's.
    const mixed = await postgres.search('red helicoptr', 'all', filter);
    expect(mixed.map((h) => h.segmentId)).toEqual(
      expect.arrayContaining([
        postgres.a.segments.get('harbour-drive.mp4#0'),
        postgres.a.segments.get('harbour-drive.mp4#2'),
      ]),
    );
  });

  it('serves the SegmentSearch interface and forgets a video unindexed', async () => {
    const search = new PgSegmentSearch(pg);
    const request = { text: 'budget', field: 'all' as const, filter: { accountId: postgres.a.accountId }, limit: 5 };
    expect((await search.search(request)).map((h) => h.segmentId)).toEqual([
      postgres.a.segments.get('interview.mov#0'),
    ]);
    const videoId = z
      .object({ id: z.number() })
      .parse(await pg.get('SELECT id FROM videos WHERE video_no = ?', postgres.a.videoNos.get('interview.mov')!)).id;
    await pg
      .transaction(async (tx) => {
        await unindexVideoPg(tx, postgres.a.accountId, videoId);
        expect(await searchSegmentsPg(tx, parseQuery('budget'), 'all', request.filter, 5)).toEqual([]);
        throw new Rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
      });
    expect(await search.search(request)).toHaveLength(1);
  });

  it('agrees on a seeded random library: every hit, its order, its reason and its score', async () => {
    const words = [
      'boat',
      'river',
      'bridge',
      'walking',
      'dog',
      'dogs',
      'running',
      'city',
      'night',
      'lights',
      'crowd',
      'market',
      'rain',
      'umbrella',
      'child',
      'children',
      'bicycle',
      'train',
      'station',
      'sunrise',
      'mountain',
      'sky',
      'skies',
      'general',
      'generous',
      'cried',
      'crying',
      'snow',
    ];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const sentence = (n: number): string => Array.from({ length: n }, () => words[next(words.length)]).join(' ');
    const videos: SeedVideo[] = Array.from({ length: 8 }, (_, v) => ({
      name: `random-${v}.mp4`,
      folder: `folder ${words[v]}`,
      segments: Array.from({ length: 25 }, () => ({
        caption: sentence(1 + next(8)),
        transcript: sentence(next(12)),
        ocrText: next(4) === 0 ? sentence(2) : '',
        labels: next(3) === 0 ? [{ label: words[next(words.length)]!, source: 'objects:centernet' }] : [],
      })),
    }));
    const seeded = await seedBoth('random', videos);
    let compared = 0;
    let maxDiff = 0;
    for (let q = 0; q < 30; q++) {
      const text = q % 5 === 0 ? `"${sentence(2)}"` : sentence(1 + (q % 3));
      const field: SearchField = q % 7 === 3 ? 'transcript' : q % 7 === 5 ? 'caption' : 'all';
      const { hits, diff } = await compare(seeded, text, field);
      maxDiff = Math.max(maxDiff, diff);
      compared += hits.length;
    }
    expect(compared).toBeGreaterThan(150);
    expect(maxDiff).toBeLessThanOrEqual(0.0001);
  });

  it('keeps a phrase inside one column, and ranks segments of hundreds of words the same', async () => {
    // Past 250 words PostgreSQL reads a segment's columns from their own tsvectors (pg-candidates.ts).
    const long = Array.from({ length: 300 }, (_, i) => (i % 2 ? 'tide' : `word${i % 7}`)).join(' ');
    const videos: SeedVideo[] = [
      {
        name: 'edges.mp4',
        folder: 'Edges',
        segments: [
          { caption: 'a boat in the harbour red', transcript: 'car wash' },
          { caption: 'the red car', transcript: 'tide' },
          { caption: 'low tide', transcript: long, ocrText: 'red car tide' },
          { caption: 'tide tide tide', transcript: Array.from({ length: 270 }, () => 'tide').join(' ') },
          { caption: 'a car', transcript: 'red', labels: [{ label: 'tide', source: 'objects:centernet' }] },
          // More than tsvector's 256 positions of one word in all columns together, not in any one.
          { caption: Array.from({ length: 200 }, () => 'surf').join(' '), transcript: long.replaceAll('tide', 'surf') },
          { caption: 'surf', transcript: 'surf and more surf' },
        ],
      },
    ];
    const seeded = await seedBoth('edges', videos);
    const searches: [string, SearchField][] = [
      ['"red car"', 'all'],
      ['red car', 'all'],
      ['"car wash"', 'transcript'],
      ['tide', 'all'],
      ['tide', 'caption'],
      ['tide', 'transcript'],
      ['"low tide"', 'all'],
      ['tide word3', 'all'],
      ['surf', 'all'],
      ['surf', 'transcript'],
    ];
    const found = new Map<string, (string | undefined)[]>();
    for (const [text, field] of searches) {
      const { hits, diff } = await compare(seeded, text, field);
      expect(diff, `${field}: ${text}`).toBeLessThanOrEqual(0.0001);
      found.set(`${field}: ${text}`, hits);
    }
    // "red" ends the first segment's caption and "car" starts its transcript: not the phrase.
    expect(found.get('all: "red car"')).toEqual(['edges.mp4#1', 'edges.mp4#2']);
    expect(found.get('all: tide')).toHaveLength(4);
    expect(found.get('transcript: tide')?.sort()).toEqual(['edges.mp4#1', 'edges.mp4#2', 'edges.mp4#3']);
  });

  /** A library seeded on both engines for the account `name`. */
  async function seedBoth(name: string, videos: SeedVideo[]): Promise<{ lite: Seeded; post: Seeded }> {
    return {
      lite: await seedLibrary(databases().lite, databases().cache, name, videos),
      post: await seedLibrary(pg, undefined, name, videos),
    };
  }

  /**
   * One search (top 10) on both engines of a library `seedBoth` seeded: expects the same hits and reasons in the same
   * order; the hits' segment names and the largest score difference.
   */
  async function compare(
    { lite, post }: { lite: Seeded; post: Seeded },
    text: string,
    field: SearchField,
  ): Promise<{ hits: (string | undefined)[]; diff: number }> {
    const name = (s: Seeded): Map<number, string> => new Map([...s.segments].map(([n, id]) => [id, n]));
    const a = (await sqlite.search(text, field, { accountId: lite.accountId }, 10)).map((h) => ({
      segment: name(lite).get(h.segmentId),
      matched: h.matched,
      score: h.score,
    }));
    const b = (await postgres.search(text, field, { accountId: post.accountId }, 10)).map((h) => ({
      segment: name(post).get(h.segmentId),
      matched: h.matched,
      score: h.score,
    }));
    expect(
      b.map((h) => [h.segment, h.matched]),
      `${field}: ${text}`,
    ).toEqual(a.map((h) => [h.segment, h.matched]));
    return { hits: a.map((h) => h.segment), diff: Math.max(0, ...b.map((h, i) => Math.abs(h.score - a[i]!.score))) };
  }

  it('matches through the GIN index that leads with the account, on a library of some size', async () => {
    // 5,000 more segments of one more account, written in SQL (the planner reads a table this size by its indexes).
    const big = await seedLibrary(pg, undefined, 'gamma', [{ name: 'big.mp4', folder: 'Big', segments: [] }]);
    const videoNo = big.videoNos.get('big.mp4')!;
    await pg.run(
      `INSERT INTO segments (video_id, idx, start_time, end_time, caption)
       SELECT v.id, g, g, g + 1, 'crowd number ' || g FROM videos v, generate_series(0, 4999) g WHERE v.video_no = ?`,
      videoNo,
    );
    await pg.run(
      `INSERT INTO segment_search (segment_id, account_id, names, label_text, body, tokens, caption_tsv, transcript_tsv,
         ocr_tsv, labels_tsv, names_tsv)
       SELECT s.id, v.account_id, '', '', s.caption, 3, to_tsvector('reelsync_search', s.caption), '', '', '', ''
       FROM segments s JOIN videos v ON v.id = s.video_id WHERE v.video_no = ?`,
      videoNo,
    );
    // VACUUM moves the fresh rows out of GIN's pending list, as autovacuum would.
    await pg.run('VACUUM ANALYZE segment_search_rank');
    const plan = z
      .array(z.object({ 'QUERY PLAN': z.string() }))
      .parse(
        await pg.all(
          `EXPLAIN SELECT segment_id FROM segment_search_rank WHERE account_id = ? AND terms @@ CAST('''4321''' AS tsquery)`,
          big.accountId,
        ),
      )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('Bitmap Index Scan on segment_search_rank_match');
    expect(plan).toMatch(/Index Cond: \(\(account_id = .*\) AND \(terms @@/);
    const hits = await postgres.search('4321', 'all', { accountId: big.accountId });
    expect(hits.map((h) => h.caption)).toEqual(['crowd number 4321']);
  });
});

class Rollback extends Error {}
