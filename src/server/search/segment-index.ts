import type { Statement } from 'better-sqlite3';
import type { Db } from '../storage/db';
import { segmentPartitionDdl, segmentPartitionName } from '../storage/migrations/005-search-partitions';

/** What the full-text index holds for one segment, column by column. */
export interface SegmentText {
  caption: string;
  transcript: string;
  ocrText: string;
  labels: string;
  names: string;
}

/**
 * The only writer and namer of the full-text index: one FTS5 table per account (migration 5), created with the
 * account's first indexed segment. Searches of an account that has none find nothing without touching any index.
 */
export function segmentTable(accountId: number): string {
  return segmentPartitionName(accountId);
}

const known = new WeakMap<Db, Set<number>>();

/**
 * Whether the account has a full-text table yet, as searches ask it. Accounts are never deleted and their tables are
 * created by committed writes, so a table a reader once saw stays.
 */
export function hasSegmentIndex(db: Db, accountId: number): boolean {
  const seen = known.get(db) ?? new Set<number>();
  known.set(db, seen);
  if (seen.has(accountId)) return true;
  const found = tableExists(db, accountId);
  if (found) seen.add(accountId);
  return found;
}

/** Uncached, for writers: a table created inside a transaction that then rolled back is gone again. */
function tableExists(db: Db, accountId: number): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(segmentTable(accountId)) !==
    undefined
  );
}

/** Adds one segment (rowid = segments.id) to its account's index; call inside the transaction that wrote it. */
export function indexSegment(db: Db, accountId: number, segmentId: number, text: SegmentText): void {
  if (!tableExists(db, accountId)) db.exec(segmentPartitionDdl(accountId));
  insertStatement(db, accountId).run(segmentId, text.caption, text.transcript, text.ocrText, text.labels, text.names);
}

const inserts = new WeakMap<Db, Map<number, Statement>>();

function insertStatement(db: Db, accountId: number): Statement {
  const byAccount = inserts.get(db) ?? new Map<number, Statement>();
  inserts.set(db, byAccount);
  let statement = byAccount.get(accountId);
  if (!statement) {
    const table = segmentTable(accountId);
    statement = db.prepare(
      `INSERT INTO ${table} (rowid, caption, transcript, ocr_text, labels, names) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    byAccount.set(accountId, statement);
  }
  return statement;
}

/** Removes a video's segments from its account's index; call before deleting the segments themselves. */
export function unindexVideo(db: Db, accountId: number, videoId: number): void {
  if (!tableExists(db, accountId)) return;
  db.prepare(`DELETE FROM ${segmentTable(accountId)} WHERE rowid IN (SELECT id FROM segments WHERE video_id = ?)`).run(
    videoId,
  );
}
