import { z } from 'zod';
import { INDEX_RULES_VERSION } from '../indexer/index-rules';
import { countOf, parsedRows } from '../storage/rows';
import type { Sql } from '../storage/sql';

/** The job kind that indexes an indexed video again under the current rules (jobs/reindex-worker.ts). */
export const REINDEX_JOB = 'reindex';

/**
 * Indexed videos stamped with other rules than the current ones (NULL: indexed before stamps were kept). The
 * version's placeholder comes first in every statement below.
 */
const OUTDATED = "v.status = 'PARSE' AND (v.index_rules IS NULL OR v.index_rules <> ?)";
/** The video's re-index job under the current rules: one per video and version (migration 21's jobs_reindex_once). */
const ITS_JOB = "j.kind = 'reindex' AND j.ref = v.video_no || '@' || CAST(? AS TEXT)";

/** The ref of a video's re-index job under the current rules. */
export function reindexRef(videoNo: string): string {
  return `${videoNo}@${INDEX_RULES_VERSION}`;
}

export interface OutdatedCounts {
  /** PARSE videos indexed under other rules. */
  outdated: number;
  /** Of those, videos whose original is not kept (uploaded with retain_original_video false): they cannot be re-indexed. */
  withoutOriginal: number;
  /** Of those, videos whose re-index is queued or running. */
  queued: number;
  /** Of those, videos whose re-index under the current rules failed (their old index stays). */
  failed: number;
}

const countsRow = z.object({
  outdated: z.coerce.number().int(),
  without_original: z.coerce.number().int().nullable(),
  queued: z.coerce.number().int().nullable(),
  failed: z.coerce.number().int().nullable(),
});

/** How many indexed videos are outdated, and where their re-index stands. */
export async function countOutdated(sql: Sql): Promise<OutdatedCounts> {
  const row = countsRow.parse(
    await sql.get(
      `SELECT COUNT(*) AS outdated,
         SUM(CASE WHEN v.blob IS NULL THEN 1 ELSE 0 END) AS without_original,
         SUM(CASE WHEN j.state IN ('queued', 'running') THEN 1 ELSE 0 END) AS queued,
         SUM(CASE WHEN j.state IN ('failed', 'dead') THEN 1 ELSE 0 END) AS failed
       FROM videos v LEFT JOIN jobs j ON ${ITS_JOB}
       WHERE ${OUTDATED}`,
      INDEX_RULES_VERSION,
      INDEX_RULES_VERSION,
    ),
  );
  return {
    outdated: row.outdated,
    withoutOriginal: row.without_original ?? 0,
    queued: row.queued ?? 0,
    failed: row.failed ?? 0,
  };
}

const toQueueRow = z.object({ id: z.number().int(), video_no: z.string() });

/** Outdated videos with their original kept and no re-index job under the current rules yet, oldest first. */
export async function outdatedToQueue(sql: Sql, limit: number): Promise<{ id: number; video_no: string }[]> {
  const rows = await sql.all(
    `SELECT v.id, v.video_no FROM videos v
     WHERE ${OUTDATED} AND v.blob IS NOT NULL AND NOT EXISTS (SELECT 1 FROM jobs j WHERE ${ITS_JOB})
     ORDER BY v.id LIMIT ?`,
    INDEX_RULES_VERSION,
    INDEX_RULES_VERSION,
    limit,
  );
  return parsedRows(toQueueRow, rows);
}

/** Queues a job unless one with this kind and ref exists (jobs_reindex_once); whether it did. */
export type EnqueueOnce = (kind: string, ref: string, payload: unknown, maxAttempts: number) => Promise<boolean>;

/** Queues up to `limit` outdated videos' re-index jobs, never one twice; how many it queued. */
export async function queueOutdated(
  sql: Sql,
  enqueueOnce: EnqueueOnce,
  limit: number,
  maxAttempts: number,
): Promise<number> {
  let queued = 0;
  for (const video of await outdatedToQueue(sql, limit)) {
    const payload = { videoId: video.id, rules: INDEX_RULES_VERSION };
    if (await enqueueOnce(REINDEX_JOB, reindexRef(video.video_no), payload, maxAttempts)) queued += 1;
  }
  return queued;
}

/** Re-index jobs queued or running, in every process. */
export async function pendingReindexes(sql: Sql): Promise<number> {
  return countOf(
    await sql.get("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'reindex' AND state IN ('queued', 'running')"),
  );
}
