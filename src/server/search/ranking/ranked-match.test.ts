import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../common/sqlite';
import type { Db } from '../../storage/db';
import { serviceMigrations } from '../../storage/migrations';
import { segmentTableDdl } from '../sqlite/fts-table';
import {
  FLOOR_IDF,
  ftsIdf,
  splitCommon,
  topRankedMatches,
  type Phrase,
  type RankedRow,
  type RankedSource,
} from './ranked-match';
import { PhraseFrequencies, varints } from '../sqlite/phrase-frequencies';
import { rng } from '../../../../test/helpers/seeded-random';

const BM25 = 'bm25(segments_fts_1, 3.0, 2.0, 3.0, 2.5, 1.0)';
const ROWS = 12_000;

/** Words by share of rows: one in most rows (bm25 floors its idf), common ones, and a long tail. */
function corpus(db: Db): void {
  const rand = rng(11);
  const tail = (): string => `w${Math.floor(rand() ** 2 * 300)}`;
  const maybe = (word: string, share: number): string => (rand() < share ? word : '');
  db.exec(segmentTableDdl(1));
  const insert = db.prepare(
    'INSERT INTO segments_fts_1 (rowid, caption, transcript, ocr_text, labels, names) VALUES (?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (let id = 1; id <= ROWS; id++) {
      const caption = [maybe('alpha', 0.6), maybe('beta', 0.3), tail(), tail()].join(' ');
      // A rare word only in the names of very long rows: bm25 scores its rows below a common word's best.
      const weak = id % 97 === 0;
      const words = weak ? 120 : 3;
      const transcript =
        weak || rand() < 0.4
          ? [maybe('alpha', 0.3), maybe('gamma', 0.3), maybe('beta', 0.3), ...Array.from({ length: words }, tail)].join(
              ' ',
            )
          : '';
      const labels = [maybe('gamma', 0.1), maybe('delta', 0.08), tail()].join(' ');
      insert.run(
        id,
        caption,
        transcript,
        rand() < 0.1 ? tail() : '',
        labels,
        `clip-${id % 89}.mp4${weak ? ' eta' : ''}`,
      );
    }
  })();
}

/**
 * A source over the whole index (no filters) that counts the rows FTS5 scores for each query; with `shares`, common
 * phrases (in 1000 rows or more together) are scored from their frequencies (phrase-frequencies.ts), as the service does.
 */
function plainSource(
  db: Db,
  maxRanked = Infinity,
  shares = false,
): RankedSource<RankedRow> & { scored: number; expressions: string[]; sharesRead: number } {
  const averages = (db.prepare('SELECT block FROM segments_fts_1_data WHERE id = 1').get() as { block: Uint8Array })
    .block;
  const [rows = 0, ...tokens] = varints(averages);
  const frequencies = new PhraseFrequencies((sql) => db.prepare(sql), 'segments_fts_1');
  const count = db.prepare('SELECT COUNT(*) AS n FROM segments_fts_1 WHERE segments_fts_1 MATCH ?');
  const top = db.prepare(
    `SELECT rowid AS id, ${BM25} AS rank FROM segments_fts_1 WHERE segments_fts_1 MATCH ? ORDER BY rank, rowid LIMIT ?`,
  );
  const newest = db.prepare(
    `SELECT id, rank FROM (SELECT rowid AS id, ${BM25} AS rank FROM segments_fts_1 WHERE segments_fts_1 MATCH ? ORDER BY rowid DESC LIMIT ?) ORDER BY rank, id LIMIT ?`,
  );
  const n = (match: string, cap = Infinity): number => Math.min(cap, (count.get(match) as { n: number }).n);
  const source = {
    rows: ROWS,
    maxRanked,
    scored: 0,
    sharesRead: 0,
    expressions: [] as string[],
    count: n,
    hits: (match: string) => n(match),
    frequencies: shares
      ? {
          minHits: 1000,
          averageLength: tokens.reduce((x, y) => x + y, 0) / rows,
          read: (base: string, withPhrase: string[], ids: number[]) => {
            source.sharesRead++;
            return frequencies.read(base, withPhrase, ids);
          },
        }
      : undefined,
    top(match: string, wanted: number): RankedRow[] {
      source.scored += n(match);
      source.expressions.push(match);
      return top.all(match, wanted) as RankedRow[];
    },
    newest(match: string, wanted: number, window: number): RankedRow[] {
      source.scored += Math.min(window, n(match));
      source.expressions.push(match);
      return newest.all(match, window, wanted) as RankedRow[];
    },
  };
  return source;
}

function count1(db: Db, match: string): number {
  return (
    db.prepare('SELECT COUNT(*) AS n FROM segments_fts_1 WHERE segments_fts_1 MATCH ?').get(match) as { n: number }
  ).n;
}

const QUERIES: string[][] = [
  ['beta', 'w3'],
  ['beta', 'gamma', 'w40'],
  ['gamma', 'delta'],
  ['beta', 'w1', 'w2'],
  ['alpha', 'w7'],
  ['alpha', 'beta', 'w15'],
  ['alpha', 'w250'],
  ['alpha'],
  ['beta', 'gamma delta', 'w60'],
  ['delta', 'w0', 'w5'],
  ['eta', 'beta'],
];

describe('topRankedMatches: the best rows of an OR query without scoring every common word', () => {
  let db: Db;
  let floored: Set<string>;
  beforeAll(() => {
    db = openSqlite(':memory:', serviceMigrations);
    corpus(db);
    const count = db.prepare('SELECT COUNT(*) AS n FROM segments_fts_1 WHERE segments_fts_1 MATCH ?');
    floored = new Set(
      ['alpha', 'beta', 'gamma', 'delta'].filter((w) => (count.get(`"${w}"`) as { n: number }).n >= ROWS / 2),
    );
  });
  afterAll(() => db.close());

  it('has the words the cases need: one in half the rows or more, and common ones below that', () => {
    expect([...floored]).toEqual(['alpha']);
  });

  for (const shares of [false, true])
    for (const wanted of [20, 100]) {
      for (const words of QUERIES) {
        it(`${words.join(' | ')} (top ${wanted}${shares ? ', common shares from frequencies' : ''}): the plain query's best rows with its scores`, () => {
          const phrases = words.map((w) => `"${w}"`);
          const source = plainSource(db, Infinity, shares);
          const got = topRankedMatches(source, phrases, (b) => b, wanted);
          const all = db
            .prepare(
              `SELECT rowid AS id, ${BM25} AS rank FROM segments_fts_1 WHERE segments_fts_1 MATCH ? ORDER BY rank, rowid`,
            )
            .all(phrases.join(' OR ')) as RankedRow[];
          const plain = all.slice(0, wanted);
          expect(got).toHaveLength(plain.length);
          // Rows matched only by a floored word tie at ~0 (the calibrated score cannot tell them apart): those may differ.
          const scoredWords = words.filter((w) => !floored.has(w));
          const scored = new Set(
            scoredWords.length
              ? (
                  db
                    .prepare('SELECT rowid AS id FROM segments_fts_1 WHERE segments_fts_1 MATCH ?')
                    .all(scoredWords.map((w) => `"${w}"`).join(' OR ')) as RankedRow[]
                ).map((r) => r.id)
              : [],
          );
          const scoredRows = (rows: RankedRow[]): number[] => rows.filter((r) => scored.has(r.id)).map((r) => r.id);
          expect(scoredRows(got)).toEqual(scoredRows(plain));
          const fullRank = new Map(all.map((r) => [r.id, r.rank]));
          for (const r of got) expect(r.rank).toBeCloseTo(fullRank.get(r.id)!, 9);
          if (!words.some((w) => floored.has(w))) expect(got.map((r) => r.id)).toEqual(plain.map((r) => r.id));
          expect(source.scored).toBeLessThanOrEqual(all.length + 2 * wanted * source.expressions.length);
        });
      }
    }

  it('reads the common words shares from phrase frequencies, with the same rows and scores as FTS5 gives', () => {
    let read = 0;
    for (const words of QUERIES) {
      const phrases = words.map((w) => `"${w}"`);
      const viaShares = plainSource(db, Infinity, true);
      const got = topRankedMatches(viaShares, phrases, (b) => b, 20);
      read += viaShares.sharesRead;
      const plain = topRankedMatches(plainSource(db), phrases, (b) => b, 20);
      expect(
        got.map((r) => r.id),
        words.join(' '),
      ).toEqual(plain.map((r) => r.id));
      got.forEach((r, i) => expect(r.rank).toBeCloseTo(plain[i]!.rank, 9));
    }
    expect(read).toBeGreaterThanOrEqual(1);
  });

  it('scores fewer rows than the plain query when a common word comes with rarer ones', () => {
    const cases: [string[], number][] = [
      [['alpha', 'w7'], 0.2],
      [['alpha', 'beta', 'w15'], 0.5],
      [['beta', 'gamma', 'w40'], 0.8],
    ];
    for (const [words, share] of cases) {
      const source = plainSource(db);
      const phrases = words.map((w) => `"${w}"`);
      topRankedMatches(source, phrases, (b) => b, 20);
      const plainRows = (
        db
          .prepare('SELECT COUNT(*) AS n FROM segments_fts_1 WHERE segments_fts_1 MATCH ?')
          .get(phrases.join(' OR ')) as { n: number }
      ).n;
      expect(source.scored, words.join(' ')).toBeLessThan(plainRows * share);
    }
  });

  it('ranks a common word among its newest maxRanked rows, with exact scores, scoring no more than that', () => {
    const maxRanked = 1000;
    const source = plainSource(db, maxRanked);
    const got = topRankedMatches(source, ['"beta"'], (b) => b, 20);
    const newest = db
      .prepare(
        `SELECT id, rank FROM (SELECT rowid AS id, ${BM25} AS rank FROM segments_fts_1 WHERE segments_fts_1 MATCH ? ORDER BY rowid DESC LIMIT ?) ORDER BY rank, id LIMIT 20`,
      )
      .all('"beta"', maxRanked) as RankedRow[];
    expect(count1(db, '"beta"')).toBeGreaterThan(maxRanked);
    expect(got).toEqual(newest);
    expect(source.scored).toBeLessThanOrEqual(maxRanked);
    // A rare word with it: still its exact best rows, the common word's share ranked within the window.
    const mixed = plainSource(db, maxRanked);
    const withRare = topRankedMatches(mixed, ['"beta"', '"w250"'], (b) => b, 20);
    const all = db
      .prepare(`SELECT rowid AS id, ${BM25} AS rank FROM segments_fts_1 WHERE segments_fts_1 MATCH ?`)
      .all('"beta" OR "w250"') as RankedRow[];
    const fullRank = new Map(all.map((r) => [r.id, r.rank]));
    for (const r of withRare) expect(r.rank).toBeCloseTo(fullRank.get(r.id)!, 9);
    const rareRows = new Set(
      (
        db.prepare('SELECT rowid AS id FROM segments_fts_1 WHERE segments_fts_1 MATCH ?').all('"w250"') as RankedRow[]
      ).map((r) => r.id),
    );
    const bestRare = all.filter((r) => rareRows.has(r.id)).sort((x, y) => x.rank - y.rank || x.id - y.id)[0]!;
    expect(withRare[0]).toEqual(bestRare);
    expect(mixed.scored).toBeLessThanOrEqual(maxRanked * mixed.expressions.length);
  });

  it('keeps the column filter on every expression it runs', () => {
    const source = plainSource(db);
    topRankedMatches(source, ['"alpha"', '"beta"', '"w3"'], (b) => `caption : (${b})`, 20);
    expect(source.expressions.length).toBeGreaterThan(1);
    for (const e of source.expressions) expect(e.startsWith('caption : (')).toBe(true);
  });

  it('leaves out phrases no row contains and returns nothing when none match', () => {
    const source = plainSource(db);
    expect(topRankedMatches(source, ['"nosuchword"'], (b) => b, 20)).toEqual([]);
    topRankedMatches(source, ['"w3"', '"nosuchword"'], (b) => b, 20);
    expect(source.expressions.every((e) => !e.includes('nosuchword'))).toBe(true);
  });
});

describe('ftsIdf and splitCommon', () => {
  it("computes FTS5's idf, floored for words in half the rows or more", () => {
    expect(ftsIdf(1000, 10)).toBeCloseTo(Math.log(990.5 / 10.5), 12);
    expect(ftsIdf(1000, 500)).toBe(FLOOR_IDF);
    expect(ftsIdf(1000, 900)).toBe(FLOOR_IDF);
  });

  const phrase = (fts: string, hits: number): Phrase => ({ fts, hits, idf: ftsIdf(100_000, hits) });

  it('splits off the common phrases whose bm25 shares stay under a rarer phrase idf', () => {
    const split = splitCommon([phrase('"rare"', 300), phrase('"common"', 40_000), phrase('"mid"', 9_000)], 200);
    expect(split?.common.map((p) => p.fts)).toEqual(['"common"']);
    expect(split?.rare.map((p) => p.fts)).toEqual(['"mid"', '"rare"']);
  });

  it('does not split phrases of similar weight, nor when the common ones are few rows', () => {
    expect(splitCommon([phrase('"a"', 20_000), phrase('"b"', 15_000)], 200)).toBeUndefined();
    expect(splitCommon([phrase('"rare"', 30), phrase('"small"', 3_000)], 200)).toBeUndefined();
  });
});
