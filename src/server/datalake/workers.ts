import { mkdir } from 'node:fs/promises';
import type { JobOutcome } from '../../shared/job-outcome';
import type { JobRow } from '../jobs/job-queue';
import { DERIVE_JOB, INGEST_JOB, PURGE_JOB, type Datalake } from './datalake';
import {
  catchUpIndexedIngests,
  deriveHandler,
  onIndexSettledForDatalake,
  onReindexSettledForDatalake,
} from './derive-worker';
import { ingestHandler } from './ingest-worker';
import { claimingOperation } from './operation-claim';
import { purgeHandler } from './purge-worker';
import { startStagedSweeper } from './staged-sweep';
import { STREAM_JOB, streamHandler } from './stream-worker';
import { removeOrphanUploads, startSessionSweeper } from './upload-sessions';
import { WEBHOOK_JOB, webhookHandler } from './webhooks';

export interface DatalakeWorkers {
  /** To chain after the indexer's own settle hook; never rejects. */
  onIndexSettled(job: JobRow, outcome: JobOutcome): Promise<void>;
  /** To chain after a re-index job settles; never rejects. */
  onReindexSettled(job: JobRow, outcome: JobOutcome): Promise<void>;
  /** Stops the periodic work (the idle upload-session sweep, the orphan staged-upload sweep). */
  stop(): Promise<void>;
}

/** Registers interface B's job workers (before the queue starts) and catches up on ingests a crash left between stages. */
export async function startDatalakeWorkers(dl: Datalake): Promise<DatalakeWorkers> {
  const { ctx } = dl;
  await mkdir(dl.uploadDir, { recursive: true });
  await removeOrphanUploads(dl);
  ctx.jobs.register({
    kind: INGEST_JOB,
    concurrency: 2,
    baseDelayMs: 2_000,
    handler: claimingOperation(dl, ingestHandler(dl)),
  });
  ctx.jobs.register({
    kind: DERIVE_JOB,
    concurrency: 1,
    baseDelayMs: 2_000,
    handler: claimingOperation(dl, deriveHandler(dl)),
  });
  ctx.jobs.register({
    kind: PURGE_JOB,
    concurrency: 1,
    baseDelayMs: 1_000,
    handler: claimingOperation(dl, purgeHandler(dl)),
  });
  ctx.jobs.register({ kind: STREAM_JOB, concurrency: 8, baseDelayMs: 5_000, handler: streamHandler(dl) });
  ctx.jobs.register({
    kind: WEBHOOK_JOB,
    concurrency: 4,
    baseDelayMs: ctx.config.webhooks.baseDelayMs,
    handler: webhookHandler(ctx),
  });
  await catchUpIndexedIngests(dl);
  const stopSweepers = [startSessionSweeper(dl), startStagedSweeper(dl)];
  return {
    onIndexSettled: onIndexSettledForDatalake(dl),
    onReindexSettled: onReindexSettledForDatalake(dl),
    stop: async () => void (await Promise.all(stopSweepers.map((stop) => stop()))),
  };
}
