import type { Db } from '../../storage/db';
import type { Sql } from '../../storage/sql';
import type { SearchCache } from './search-cache';
import type { SegmentText } from '../segment-types';
import { segmentTable, segmentTableDdl } from './fts-table';

export { segmentTable } from './fts-table';

/**
 * The only writer of SQLite's full-text index: one FTS5 table per account (fts-table.ts), created with the account's
 * first indexed segment. Searches of an account that has none find nothing without touching any index.
 */

/** Whether the account has a full-text table yet, as searches ask it (remembered once seen: see SearchCache). */
export function hasSegmentIndex(cache: SearchCache, accountId: number): boolean {
  if (cache.indexedAccounts.has(accountId)) return true;
  const found = tableExists(cache.db, accountId);
  if (found) cache.indexedAccounts.add(accountId);
  return found;
}

/**
 * Rows in an account's full-text table, as FTS5's bm25 counts them (its N): the row total FTS5 itself keeps in the
 * table's "averages" record (`_data` id 1, a varint first), read in O(1) where COUNT(*) over `_docsize` visits every
 * row (about 10 ms a search at 1,000,000 segments). 0 for a table that has never held a row.
 */
export function indexedRowCount(cache: SearchCache, accountId: number): number {
  const found = cache.statement(`SELECT block FROM ${segmentTable(accountId)}_data WHERE id = 1`).get() as
    { block: unknown } | undefined;
  if (found === undefined) return 0;
  if (!(found.block instanceof Uint8Array)) throw new Error(`full-text table of account ${accountId}: bad averages`);
  // A table created but never written holds an empty record, which FTS5 reads as zeros.
  return found.block.length === 0 ? 0 : leadingVarint(found.block);
}

/** SQLite's (and FTS5's) varint: big-endian groups of 7 bits while the high bit is set, a 9th byte of 8 bits. */
function leadingVarint(bytes: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    const byte = bytes[i];
    if (byte === undefined) break;
    if (i === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  throw new Error('truncated varint in a full-text table');
}

/** Uncached, for writers: a table created inside a transaction that then rolled back is gone again. */
function tableExists(db: Db, accountId: number): boolean {
  return db.prepare(TABLE_EXISTS_SQL).get(segmentTable(accountId)) !== undefined;
}

const TABLE_EXISTS_SQL = "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?";

/** Adds one segment (rowid = segments.id) to its account's index; call inside the transaction that wrote it. */
export function indexSegment(cache: SearchCache, accountId: number, segmentId: number, text: SegmentText): void {
  if (!tableExists(cache.db, accountId)) cache.db.exec(segmentTableDdl(accountId));
  cache.statement(insertSegmentSql(accountId)).run(...segmentColumns(segmentId, text));
}

export function insertSegmentSql(accountId: number): string {
  return `INSERT INTO ${segmentTable(accountId)} (rowid, caption, transcript, ocr_text, labels, names) VALUES (?, ?, ?, ?, ?, ?)`;
}

export function segmentColumns(segmentId: number, text: SegmentText): [number, string, string, string, string, string] {
  return [segmentId, text.caption, text.transcript, text.ocrText, text.labels, text.names];
}

/** SQLite's side of videoFullText (segment-index.ts), in the transaction `tx` that rewrites or deletes the segments. */
export const sqliteFullText = {
  async unindex(tx: Sql, accountId: number, videoId: number): Promise<void> {
    const ofVideo = 'rowid IN (SELECT id FROM segments WHERE video_id = ?)';
    if (await segmentIndexExists(tx, accountId))
      await tx.run(`DELETE FROM ${segmentTable(accountId)} WHERE ${ofVideo}`, videoId);
    await tx.run(`DELETE FROM segments_trigram WHERE ${ofVideo}`, videoId);
  },

  async prepare(tx: Sql, accountId: number): Promise<void> {
    if (!(await segmentIndexExists(tx, accountId))) await tx.run(segmentTableDdl(accountId));
  },

  async index(tx: Sql, accountId: number, segmentId: number, text: SegmentText, trigram: string): Promise<void> {
    await tx.run(insertSegmentSql(accountId), ...segmentColumns(segmentId, text));
    await tx.run('INSERT INTO segments_trigram (rowid, body) VALUES (?, ?)', segmentId, trigram);
  },
};

async function segmentIndexExists(tx: Sql, accountId: number): Promise<boolean> {
  return (await tx.get(TABLE_EXISTS_SQL, segmentTable(accountId))) !== undefined;
}
