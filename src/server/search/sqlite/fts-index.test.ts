import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../common/sqlite';
import type { Db } from '../../storage/db';
import { serviceMigrations } from '../../storage/migrations';
import { SearchCache } from './search-cache';
import { indexedRowCount, indexSegment, segmentTable } from './fts-index';

describe('indexedRowCount', () => {
  let db: Db;
  let cache: SearchCache;
  beforeAll(() => {
    db = openSqlite(':memory:', serviceMigrations);
    cache = new SearchCache(db);
  });
  afterAll(() => db.close());

  const counted = (accountId: number): number =>
    (db.prepare(`SELECT COUNT(*) AS n FROM ${segmentTable(accountId)}_docsize`).get() as { n: number }).n;
  const text = (i: number) => ({
    caption: `a boat ${i}`,
    transcript: '',
    ocrText: '',
    labels: '',
    names: `clip-${i}.mp4`,
  });

  it("reads FTS5's own row total, the N of its bm25, as rows come and go", () => {
    // Past 127 and 16,383 rows the total takes two, then three bytes of varint.
    for (const [from, to] of [
      [1, 100],
      [100, 20_000],
    ] as const) {
      db.transaction(() => {
        for (let i = from; i < to; i++) indexSegment(cache, 1, i, text(i));
      })();
      expect(indexedRowCount(cache, 1)).toBe(counted(1));
    }
    expect(indexedRowCount(cache, 1)).toBe(19_999);
    db.prepare(`DELETE FROM ${segmentTable(1)} WHERE rowid % 3 = 0`).run();
    expect(indexedRowCount(cache, 1)).toBe(counted(1));
  });

  it('is 0 for a table that holds no row yet', () => {
    indexSegment(cache, 2, 1, text(1));
    db.prepare(`DELETE FROM ${segmentTable(2)}`).run();
    expect(indexedRowCount(cache, 2)).toBe(0);
    db.exec(`CREATE VIRTUAL TABLE ${segmentTable(3)} USING fts5(caption, transcript, ocr_text, labels, names)`);
    expect(indexedRowCount(cache, 3)).toBe(0);
  });
});
