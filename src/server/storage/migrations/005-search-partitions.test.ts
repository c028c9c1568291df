import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../shared/sqlite-migrate';
import { parseQuery } from '../../search/query/query-text';
import { searchSegments } from '../../search/sqlite/search-segments';
import { SearchCache } from '../../search/sqlite/search-cache';
import { serviceMigrations } from './index';

describe('migration 5: one full-text table per account', () => {
  it("moves every account's rows of the shared index into its own table and drops the shared one", () => {
    const db = new Database(':memory:');
    migrate(db, serviceMigrations.slice(0, 4));
    db.exec(`
      INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES (1, 'a', 's', 0), (2, 'b', 's', 0), (3, 'c', 's', 0);
      INSERT INTO folders (id, account_id, name, created_at) VALUES (1, 1, 'f', 0), (2, 2, 'f', 0);
      INSERT INTO videos (id, video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size, sha256, created_at)
        VALUES (1, 'VA', 1, 1, 'a.mp4', 'a.mp4', 'PARSE', 'b', 'video/mp4', 1, 'x', 0), (2, 'VB', 2, 2, 'b.mp4', 'b.mp4', 'PARSE', 'b', 'video/mp4', 1, 'x', 0);
      INSERT INTO segments (id, video_id, idx, start_time, end_time, caption) VALUES (10, 1, 0, 0, 5, 'a red boat'), (11, 1, 1, 5, 10, 'a harbor'), (20, 2, 0, 0, 5, 'a red car');
      INSERT INTO segments_fts (rowid, caption, transcript, ocr_text, labels, names) VALUES
        (10, 'a red boat', '', '', 'boat', 'a.mp4'), (11, 'a harbor', '', '', '', 'a.mp4'), (20, 'a red car', '', '', 'car', 'b.mp4');
    `);
    migrate(db, serviceMigrations);
    const tables = (
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%fts5%' AND name LIKE 'segments_fts%'",
        )
        .all() as { name: string }[]
    ).map((t) => t.name);
    expect(tables.sort()).toEqual(['segments_fts_1', 'segments_fts_2']);
    expect(db.prepare('SELECT rowid, labels, names FROM segments_fts_1 ORDER BY rowid').all()).toEqual([
      { rowid: 10, labels: 'boat', names: 'a.mp4' },
      { rowid: 11, labels: '', names: 'a.mp4' },
    ]);
    expect(
      searchSegments(new SearchCache(db), parseQuery('red'), 'all', { accountId: 1 }, 10).map((h) => h.segmentId),
    ).toEqual([10]);
    expect(
      searchSegments(new SearchCache(db), parseQuery('red'), 'all', { accountId: 2 }, 10).map((h) => h.segmentId),
    ).toEqual([20]);
    expect(searchSegments(new SearchCache(db), parseQuery('red'), 'all', { accountId: 3 }, 10)).toEqual([]);
    db.close();
  });
});
