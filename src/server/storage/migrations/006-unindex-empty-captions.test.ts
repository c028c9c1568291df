import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../shared/sqlite-migrate';
import { parseQuery } from '../../search/query/query-text';
import { searchSegments } from '../../search/sqlite/search-segments';
import { SearchCache } from '../../search/sqlite/search-cache';
import { serviceMigrations } from './index';

describe('migration 6: the "nothing recognised" caption leaves the indexes', () => {
  it('stops an empty shot indexed before it from matching the words of that caption', () => {
    const db = new Database(':memory:');
    migrate(db, serviceMigrations.slice(0, 5));
    const empty = 'No people, objects, text or speech recognised.';
    db.exec(`
      INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES (1, 'a', 's', 0);
      INSERT INTO folders (id, account_id, name, created_at) VALUES (1, 1, 'f', 0);
      INSERT INTO videos (id, video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size, sha256, created_at)
        VALUES (1, 'VA', 1, 1, 'a.mp4', 'a.mp4', 'PARSE', 'b', 'video/mp4', 1, 'x', 0);
      INSERT INTO segments (id, video_id, idx, start_time, end_time, caption, caption_vector) VALUES (10, 1, 0, 0, 5, '${empty}', x'00'), (11, 1, 1, 5, 10, 'Two people', x'00');
      CREATE VIRTUAL TABLE segments_fts_1 USING fts5(caption, transcript, ocr_text, labels, names, tokenize = 'porter unicode61 remove_diacritics 2');
      INSERT INTO segments_fts_1 (rowid, caption, transcript, ocr_text, labels, names) VALUES (10, '${empty}', '', '', '', 'a.mp4'), (11, 'Two people', '', '', 'person', 'a.mp4');
      INSERT INTO segments_trigram (rowid, body) VALUES (10, '${empty}   person a.mp4'), (11, 'Two people   person a.mp4');
    `);
    const people = (): number[] =>
      searchSegments(new SearchCache(db), parseQuery('people'), 'all', { accountId: 1 }, 10).map((h) => h.segmentId);
    // Before: the index matches the empty shot (today's search reads columns later migrations add, so it runs after).
    expect(
      db.prepare('SELECT rowid FROM segments_fts_1 WHERE segments_fts_1 MATCH ? ORDER BY rowid').all('people'),
    ).toEqual([{ rowid: 10 }, { rowid: 11 }]);
    migrate(db, serviceMigrations);
    expect(people()).toEqual([11]);
    expect(
      db.prepare('SELECT rowid FROM segments_fts_1 WHERE segments_fts_1 MATCH ? ORDER BY rowid').all('people'),
    ).toEqual([{ rowid: 11 }]);
    expect(db.prepare('SELECT body FROM segments_trigram WHERE rowid = 10').get()).toEqual({ body: '   person a.mp4' });
    expect(db.prepare('SELECT caption, caption_vector FROM segments ORDER BY id').all()).toEqual([
      { caption: empty, caption_vector: null },
      { caption: 'Two people', caption_vector: Buffer.from([0]) },
    ]);
    db.close();
  });
});
