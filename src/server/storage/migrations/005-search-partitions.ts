import { z } from 'zod';
import type { MigratableDb, Migration } from '../../../shared/sqlite-migrate';

/** One account's full-text index (rowid = segments.id), in the shape of version 5. */
export function segmentPartitionName(accountId: number): string {
  if (!Number.isSafeInteger(accountId) || accountId < 1) throw new RangeError(`invalid account id ${accountId}`);
  return `segments_fts_${accountId}`;
}

export function segmentPartitionDdl(accountId: number): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${segmentPartitionName(accountId)} USING fts5(
    caption, transcript, ocr_text, labels, names,
    tokenize = 'porter unicode61 remove_diacritics 2'
  )`;
}

interface QueryableDb extends MigratableDb {
  prepare(sql: string): { all(...params: unknown[]): unknown[] };
}

function isQueryable(db: MigratableDb): db is QueryableDb {
  return 'prepare' in db && typeof db.prepare === 'function';
}

/**
 * The full-text index splits into one FTS5 table per account: a MATCH then visits only the caller's rows (another
 * account's segments cost a search nothing), and bm25's statistics (row count, document frequency, average length)
 * come from the caller's own segments, so one account's scores never move with another's words. Every row of the
 * shared table moves to its account's table; the shared table goes.
 */
export const m005SearchPartitions: Migration = {
  version: 5,
  name: 'search-partitions',
  up: (db) => {
    if (!isQueryable(db)) throw new Error('migration 5 needs a connection that can read rows');
    const accounts = z
      .array(z.object({ account_id: z.number().int() }))
      .parse(db.prepare('SELECT DISTINCT v.account_id FROM segments s JOIN videos v ON v.id = s.video_id').all());
    for (const { account_id: accountId } of accounts) {
      db.exec(segmentPartitionDdl(accountId));
      db.exec(
        `INSERT INTO ${segmentPartitionName(accountId)} (rowid, caption, transcript, ocr_text, labels, names)
         SELECT f.rowid, f.caption, f.transcript, f.ocr_text, f.labels, f.names
         FROM segments_fts f JOIN segments s ON s.id = f.rowid JOIN videos v ON v.id = s.video_id
         WHERE v.account_id = ${accountId}`,
      );
    }
    db.exec('DROP TABLE segments_fts');
  },
};
