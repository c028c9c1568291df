import { z } from 'zod';
import type { MigratableDb, Migration } from '../../../shared/sqlite-migrate';
import { segmentPartitionName } from './005-search-partitions';

/** The caption versions 1-5 gave a segment in which nothing was recognised (a shipped literal: never change it). */
const NOTHING_RECOGNISED_V5 = 'No people, objects, text or speech recognised.';

interface QueryableDb extends MigratableDb {
  prepare(sql: string): { all(...params: unknown[]): unknown[]; run(...params: unknown[]): unknown };
}

function isQueryable(db: MigratableDb): db is QueryableDb {
  return 'prepare' in db && typeof db.prepare === 'function';
}

/**
 * Segments in which nothing was recognised were indexed with the caption that says so, so "people walking" matched
 * every empty shot through the word "people". Their caption stays as shown; it leaves the full-text indexes, and their
 * caption vector goes (BY_CAPTION then scores them on the content alone: nothing).
 */
export const m006UnindexEmptyCaptions: Migration = {
  version: 6,
  name: 'unindex-empty-captions',
  up: (db) => {
    if (!isQueryable(db)) throw new Error('migration 6 needs a connection that can read rows');
    const accounts = z
      .array(z.object({ account_id: z.number().int() }))
      .parse(
        db
          .prepare(
            'SELECT DISTINCT v.account_id FROM segments s JOIN videos v ON v.id = s.video_id WHERE s.caption = ?',
          )
          .all(NOTHING_RECOGNISED_V5),
      );
    for (const { account_id: accountId } of accounts) {
      const table = segmentPartitionName(accountId);
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").all(table).length > 0;
      if (!exists) continue;
      db.prepare(
        `UPDATE ${table} SET caption = '' WHERE rowid IN (SELECT s.id FROM segments s JOIN videos v ON v.id = s.video_id WHERE v.account_id = ? AND s.caption = ?)`,
      ).run(accountId, NOTHING_RECOGNISED_V5);
    }
    db.prepare(
      "UPDATE segments_trigram SET body = replace(body, ?, '') WHERE rowid IN (SELECT id FROM segments WHERE caption = ?)",
    ).run(NOTHING_RECOGNISED_V5, NOTHING_RECOGNISED_V5);
    db.prepare('UPDATE segments SET caption_vector = NULL WHERE caption = ?').run(NOTHING_RECOGNISED_V5);
  },
};
