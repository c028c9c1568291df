import type { Db } from '../storage/db';
import { segmentPartitionDdl, segmentPartitionName } from '../storage/migrations/005-search-partitions';
import type { SearchCache } from './search-cache';

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

/** Whether the account has a full-text table yet, as searches ask it (remembered once seen: see SearchCache). */
export function hasSegmentIndex(cache: SearchCache, accountId: number): boolean {
  if (cache.indexedAccounts.has(accountId)) return true;
  const found = tableExists(cache.db, accountId);
  if (found) cache.indexedAccounts.add(accountId);
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
export function indexSegment(cache: SearchCache, accountId: number, segmentId: number, text: SegmentText): void {
  if (!tableExists(cache.db, accountId)) cache.db.exec(segmentPartitionDdl(accountId));
  const table = segmentTable(accountId);
  cache
    .statement(`INSERT INTO ${table} (rowid, caption, transcript, ocr_text, labels, names) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(segmentId, text.caption, text.transcript, text.ocrText, text.labels, text.names);
}

/** Removes a video's segments from its account's index; call before deleting the segments themselves. */
export function unindexVideo(db: Db, accountId: number, videoId: number): void {
  if (!tableExists(db, accountId)) return;
  db.prepare(`DELETE FROM ${segmentTable(accountId)} WHERE rowid IN (SELECT id FROM segments WHERE video_id = ?)`).run(
    videoId,
  );
}
