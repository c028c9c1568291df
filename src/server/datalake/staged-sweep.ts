import { z } from 'zod';
import { bucketOf, type ServiceContext } from '../context';
import { parsedRows } from '../storage/rows';
import type { Datalake } from './datalake';
import type { DlVideoRow } from './dl-videos';
import { runPeriodically } from './periodic';

/**
 * A staged upload younger than this is left be whatever its row says: the process that staged it may still be about
 * to queue its ingest (staging comes first, and a large upload's transfer to S3 takes minutes).
 */
export const STAGED_GRACE_MS = 60 * 60 * 1000;
/** How often the sweep lists every account's staging folder (one LIST per account on S3). */
const SWEEP_PERIOD_MS = 15 * 60 * 1000;

const STAGING_FOLDER = 'datalake-uploads';
const STAGED_NAME = /^datalake-uploads\/([^/]+)\.bin$/;
const accountIdRow = z.object({ id: z.number().int() });

type SweepScope = Pick<Datalake, 'videos' | 'operations'> & { ctx: Pick<ServiceContext, 'sql' | 'blobs' | 'log'> };

/**
 * Deletes staged uploads (`<account bucket>/datalake-uploads/<videoId>.bin`) that no ingest will read: older than the
 * grace period, and whose video row is gone, belongs to another account, or has no ingest operation still running.
 * A crash between staging and queuing the ingest (or between the ingest storing the video and removing its upload)
 * leaves such a blob, which nothing else would ever delete. Returns what it deleted, as bucket/blob.
 */
export async function sweepStagedUploads(dl: SweepScope, now = Date.now()): Promise<string[]> {
  const { sql, blobs, log } = dl.ctx;
  const removed: string[] = [];
  for (const { id } of parsedRows(accountIdRow, await sql.all('SELECT id FROM accounts ORDER BY id'))) {
    const bucket = bucketOf(id);
    for await (const { blob, modifiedMs } of blobs.list(bucket, STAGING_FOLDER)) {
      const videoId = STAGED_NAME.exec(blob)?.[1];
      if (!videoId || now - modifiedMs < STAGED_GRACE_MS) continue;
      const video = await dl.videos.byId(videoId);
      if (video?.account_id === id && (await ingestRunning(dl, video))) continue;
      await blobs.delete(bucket, blob);
      removed.push(`${bucket}/${blob}`);
    }
  }
  if (removed.length) log.info({ blobs: removed }, 'removed orphan staged uploads');
  return removed;
}

async function ingestRunning(dl: Pick<Datalake, 'operations'>, video: DlVideoRow): Promise<boolean> {
  if (!video.operation_id) return false;
  const op = await dl.operations.byId(video.operation_id);
  return op?.kind === 'ingest' && !op.done;
}

/** Runs the staged-upload sweep now and every SWEEP_PERIOD_MS on a process that runs jobs; returns the stop. */
export function startStagedSweeper(dl: Datalake): () => Promise<void> {
  return runPeriodically(SWEEP_PERIOD_MS, () => sweepStagedUploads(dl), dl.ctx.log, 'staged upload sweep');
}
