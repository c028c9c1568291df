import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTERING_LEVELS } from '../../../shared/api-types';
import { PARTIAL_MAX_SCORE } from '../ranking/segment-scoring';
import { openSqlite } from '../../../common/sqlite';
import type { Db } from '../../storage/db';
import { serviceMigrations } from '../../storage/migrations';
import { parseQuery } from '../query/query-text';
import { searchSegments } from './search-segments';
import { SearchCache } from './search-cache';
import { indexSegment } from './fts-index';

const VIDEOS = 600;
const PER_VIDEO = 10;

/**
 * Account 1 has two folders: "main" with most videos, where "harbor" is in every caption and "boat" in many, and
 * "side" with a few videos whose only "boat" is deep in a long transcript (weak bm25). Account 2 has one video.
 */
function seed(db: Db): { main: number; side: number } {
  const cache = new SearchCache(db);
  db.prepare(
    "INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES (1, 'a', 's', 0), (2, 'b', 's', 0)",
  ).run();
  const folder = db.prepare('INSERT INTO folders (account_id, name, created_at) VALUES (?, ?, 0)');
  const main = Number(folder.run(1, 'main').lastInsertRowid);
  const side = Number(folder.run(1, 'side').lastInsertRowid);
  const other = Number(folder.run(2, 'main').lastInsertRowid);
  const video = db.prepare(
    `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size, sha256, created_at)
     VALUES (?, ?, ?, ?, ?, 'PARSE', 'b', 'video/mp4', 1, 'x', 0)`,
  );
  const segment = db.prepare(
    'INSERT INTO segments (video_id, idx, start_time, end_time, caption, transcript, ocr_text, labels) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const add = (videoId: number, i: number, caption: string, transcript: string, names: string, accountId = 1): void => {
    const id = Number(segment.run(videoId, i, i * 5, i * 5 + 5, caption, transcript, '', '').lastInsertRowid);
    indexSegment(cache, accountId, id, { caption, transcript, ocrText: '', labels: '', names });
  };
  db.transaction(() => {
    for (let v = 0; v < VIDEOS; v++) {
      const inSide = v % 100 === 99;
      const name = `clip-${v}.mp4`;
      const videoId = Number(video.run(`V${v}`, 1, inSide ? side : main, name, name).lastInsertRowid);
      for (let i = 0; i < PER_VIDEO; i++) {
        const filler = Array.from({ length: inSide ? 60 : 4 }, (_, k) => `word${(v * 7 + i * 3 + k) % 50}`).join(' ');
        const caption = inSide
          ? 'a quiet street'
          : `the harbor${(v + i) % 3 === 0 ? ' with a boat' : ''}${v === 5 && i === 2 ? ' and a lighthouse' : ''}`;
        add(videoId, i, caption, `${filler}${inSide && i === 0 ? ' boat' : ''}`, name);
      }
    }
    const otherVideo = Number(video.run('W1', 2, other, 'theirs.mp4', 'theirs.mp4').lastInsertRowid);
    add(otherVideo, 0, 'a boat and a lighthouse', '', 'theirs.mp4', 2);
  })();
  return { main, side };
}

describe('searchSegments', () => {
  let db: Db;
  let cache: SearchCache;
  let folders: { main: number; side: number };
  beforeAll(() => {
    db = openSqlite(':memory:', serviceMigrations);
    folders = seed(db);
    cache = new SearchCache(db);
  });
  afterAll(() => db.close());

  it('ranks the rows with every word first, a word in every row adding little', () => {
    const hits = searchSegments(cache, parseQuery('harbor lighthouse'), 'all', { accountId: 1 }, 10);
    expect(hits).toHaveLength(10);
    expect(hits[0]).toMatchObject({ videoNo: 'V5', start: 10, caption: 'the harbor and a lighthouse' });
    expect(hits[0]!.score).toBeGreaterThan(0.9);
    // The rest match only "harbor" (in every row of the folder): half the words, bm25 next to nothing, and the
    // density of the match (1 word of 6) as its strength would give 0.35 + 0.3 x 0.1 / 6 = 0.355; a partial match is
    // held just under the medium level. Equal scores are set apart by a millionth each (never left equal), in the
    // order of the tie-breaks.
    for (const h of hits.slice(1)) {
      expect(h.score).toBeCloseTo(PARTIAL_MAX_SCORE, 4);
      expect(h.score).toBeLessThan(FILTERING_LEVELS.medium);
    }
    for (let i = 2; i < hits.length; i++) expect(hits[i]!.score).toBeLessThan(hits[i - 1]!.score);
  });

  it('finds a word that is in every row, with a score for it', () => {
    const hits = searchSegments(cache, parseQuery('harbor'), 'all', { accountId: 1 }, 25);
    expect(hits).toHaveLength(25);
    for (const h of hits) expect(h.score).toBeGreaterThanOrEqual(0.7);
  });

  it('never lets a filter hide a match, however weak its rank', () => {
    const hits = searchSegments(cache, parseQuery('boat'), 'all', { accountId: 1, folderId: folders.side }, 20);
    expect(hits.map((h) => h.videoNo).sort()).toEqual(['V199', 'V299', 'V399', 'V499', 'V599', 'V99']);
  });

  it('searches one field when asked', () => {
    const transcript = searchSegments(cache, parseQuery('boat'), 'transcript', { accountId: 1 }, 50);
    expect(transcript.map((h) => h.videoNo).sort()).toEqual(['V199', 'V299', 'V399', 'V499', 'V599', 'V99']);
    const caption = searchSegments(cache, parseQuery('boat'), 'caption', { accountId: 1 }, 50);
    expect(caption).toHaveLength(50);
    for (const h of caption) expect(h.caption).toContain('boat');
  });

  it("returns only the caller's rows, each once, best first", () => {
    const hits = searchSegments(cache, parseQuery('boat lighthouse harbor'), 'all', { accountId: 1 }, 200);
    expect(hits.some((h) => h.videoNo === 'W1')).toBe(false);
    expect(new Set(hits.map((h) => h.segmentId)).size).toBe(hits.length);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    expect(searchSegments(cache, parseQuery('lighthouse'), 'all', { accountId: 2 }, 10).map((h) => h.videoNo)).toEqual([
      'W1',
    ]);
  });

  it('ranks a match on the names alone below every match on what a segment shows', () => {
    // In the side folder every segment's file is "clip-N.mp4"; only the first of each video says "boat" (in speech).
    const hits = searchSegments(cache, parseQuery('clip boat'), 'all', { accountId: 1, folderId: folders.side }, 100);
    expect(hits).toHaveLength(60);
    for (const h of hits.slice(0, 6)) expect(h.matched).toMatch(/^speech: '…word\d+ word\d+ word\d+ boat'$/);
    for (const h of hits.slice(6)) expect(h.matched).toBe('file name');
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThan(hits[i]!.score - 1e-9);
    expect(hits[5]!.score).toBeGreaterThan(hits[6]!.score);
    const lighthouse = searchSegments(cache, parseQuery('harbor lighthouse'), 'all', { accountId: 1 }, 1);
    expect(lighthouse[0]!.matched).toBe('seen: harbor, lighthouse');
  });

  it('leaves out the segments of a video being indexed again or failed, and finds them once it is searchable', () => {
    const found = (): string[] =>
      searchSegments(cache, parseQuery('lighthouse'), 'all', { accountId: 1 }, 10).map((h) => h.videoNo);
    expect(found()).toEqual(['V5']);
    for (const status of ['UNPARSE', 'FAIL']) {
      db.prepare("UPDATE videos SET status = ? WHERE video_no = 'V5'").run(status);
      expect(found(), status).toEqual([]);
      expect(
        searchSegments(cache, parseQuery('harbor'), 'all', { accountId: 1 }, 5000).some((h) => h.videoNo === 'V5'),
      ).toBe(false);
    }
    db.prepare("UPDATE videos SET status = 'PARSE' WHERE video_no = 'V5'").run();
    expect(found()).toEqual(['V5']);
  });

  it('finds nothing for words no row has', () => {
    expect(searchSegments(cache, parseQuery('zebra'), 'all', { accountId: 1 }, 10)).toEqual([]);
    expect(searchSegments(cache, parseQuery('   '), 'all', { accountId: 1 }, 10)).toEqual([]);
  });
});
