import { z } from 'zod';
import type { Db } from '../../common/sqlite';
import { indexSegmentsPg } from '../search/pg/pg-segment-index';
import type { Sql } from '../storage/sql';
import { segmentTable } from '../search/sqlite/fts-table';

const BATCH = 500;
const Account = z.object({ id: z.number().int() });
const Indexed = z.object({
  segment_id: z.number().int(),
  caption: z.string(),
  transcript: z.string(),
  ocr_text: z.string(),
  labels: z.string(),
  names: z.string(),
});
const Count = z.object({ n: z.number().int() });

/** Accounts with an FTS5 table (one per account that has an indexed segment, migration 5). */
function indexedAccounts(db: Db): number[] {
  return z
    .array(Account)
    .parse(db.prepare('SELECT id FROM accounts ORDER BY id').all())
    .map((a) => a.id)
    .filter((id) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(segmentTable(id)));
}

/**
 * The team server's search table (segment_search) from what the library's FTS5 tables hold: the same text per column
 * for every indexed segment, written by the same writer the indexer uses on PostgreSQL (indexSegmentsPg). Rows are
 * upserted, so a re-run rewrites them to the same result. Returns the number of segments indexed.
 */
export async function rebuildSearchIndex(db: Db, target: Sql): Promise<number> {
  let indexed = 0;
  for (const account of indexedAccounts(db)) {
    const read = db.prepare(
      `SELECT rowid AS segment_id, caption, transcript, ocr_text, labels, names FROM ${segmentTable(account)}
       WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    );
    for (let after = 0; ;) {
      const rows = z.array(Indexed).parse(read.all(after, BATCH));
      if (rows.length === 0) break;
      // One statement per batch: segment_search's counting trigger (migration 16) then runs once for the batch.
      await indexSegmentsPg(
        target,
        account,
        rows.map((r) => ({
          segmentId: r.segment_id,
          text: { caption: r.caption, transcript: r.transcript, ocrText: r.ocr_text, labels: r.labels, names: r.names },
        })),
      );
      indexed += rows.length;
      after = rows[rows.length - 1]?.segment_id ?? after;
    }
  }
  return indexed;
}

/** Per account, the segments the library's index holds against the team server's search rows; differences named. */
export async function verifySearchIndex(db: Db, target: Sql): Promise<string[]> {
  const problems: string[] = [];
  for (const account of indexedAccounts(db)) {
    const mine = Count.parse(db.prepare(`SELECT COUNT(*) AS n FROM ${segmentTable(account)}`).get()).n;
    const theirs = Count.parse(
      await target.get('SELECT COUNT(*) AS n FROM segment_search WHERE account_id = ?', account),
    ).n;
    if (mine !== theirs) {
      problems.push(`search index of account ${account}: ${mine} segments in the library, ${theirs} in the target`);
    }
  }
  return problems;
}
