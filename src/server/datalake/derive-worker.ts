import { z } from 'zod';
import type { JobOutcome } from '../../shared/job-outcome';
import type { JobHandler, JobRow } from '../jobs/job-queue';
import { reindexPayloadSchema } from '../jobs/reindex-worker';
import { DERIVE_JOB, type Datalake } from './datalake';
import { deriveFaceEntities } from './face-entities';
import { runSafety } from './safety/run-safety';

const payloadSchema = z.object({ operationId: z.string() });
const indexPayloadSchema = z.object({ videoId: z.number().int() });

/**
 * Called when the indexer's job for a video settles: a datalake ingest moves on to derive, or fails. Never rejects: a
 * failure is logged, and the start-up catch-up (catchUpIndexedIngests) moves the ingest on later.
 */
export function onIndexSettledForDatalake(dl: Datalake) {
  return async (job: JobRow, outcome: JobOutcome): Promise<void> => {
    try {
      const op = await dl.operations.activeFor(job.ref, 'ingest');
      if (!op) return; // an interface A upload, or an ingest that was cancelled or deleted
      const parsed = indexPayloadSchema.safeParse(JSON.parse(job.payload));
      const library = parsed.success ? await dl.ctx.videos.byId(parsed.data.videoId) : undefined;
      await advanceAfterIndex(dl, op.id, outcome.type === 'failed' ? outcome.error : null, library?.status);
    } catch (err) {
      dl.ctx.log.error(
        { job: job.id, ref: job.ref, err: err instanceof Error ? err.message : String(err) },
        'datalake index settle failed',
      );
    }
  };
}

/**
 * Called when a re-index job settles (jobs/reindex-worker.ts): the re-index replaced the library video's faces, so the
 * face entities of the datalake video made from it (in a face_recognition collection) are derived again from the new
 * ones. Never rejects: a failure is logged, and the entities stay as they were.
 */
export function onReindexSettledForDatalake(dl: Datalake) {
  return async (job: JobRow, outcome: JobOutcome): Promise<void> => {
    if (outcome.type !== 'finished') return;
    try {
      const { videoId } = reindexPayloadSchema.parse(JSON.parse(job.payload));
      for (const video of await dl.videos.fromLibraryVideo(videoId)) {
        const collection = await dl.collections.byId(video.collection_id);
        if (!collection?.face_recognition) continue;
        const entities = await deriveFaceEntities(dl.ctx.sql, video.id, videoId);
        dl.ctx.log.info({ video: video.id, entities: entities.length }, 'face entities derived again after a re-index');
      }
    } catch (err) {
      dl.ctx.log.error(
        { job: job.id, ref: job.ref, err: err instanceof Error ? err.message : String(err) },
        'face entities could not be derived again after a re-index',
      );
    }
  };
}

/** Moves an ingest past its index stage by the library row's state; also used at start to catch a missed settle. */
export async function advanceAfterIndex(
  dl: Datalake,
  operationId: string,
  error: string | null,
  status: string | undefined,
): Promise<void> {
  if (status === 'PARSE' && !error) {
    await dl.operations.setStage(operationId, 'index', 'done');
    await dl.ctx.jobs.enqueue(DERIVE_JOB, operationId, { operationId }, 3);
    return;
  }
  if (status === undefined && !error) return; // the library row is gone: cancel or delete ended the operation
  await dl.complete(operationId, { code: 'index_failed', message: error ?? 'indexing failed' });
}

/**
 * At start: an ingest whose index job settled while the service was down (or whose settle hook never ran) is moved on
 * by its library row's state, as the hook would have.
 */
export async function catchUpIndexedIngests(dl: Datalake): Promise<void> {
  for (const op of await dl.operations.unfinished('ingest')) {
    const stages = dl.operations.stages(op);
    if (stages.preprocess !== 'done' || stages.index === 'done') continue;
    const library = await dl.ctx.videos.byNo(op.account_id, op.resource);
    if (library && library.status !== 'UNPARSE' && !(await dl.ctx.jobs.hasPending('index', op.resource))) {
      await advanceAfterIndex(
        dl,
        op.id,
        library.status === 'FAIL' ? (library.fail_reason ?? 'indexing failed') : null,
        library.status,
      );
    }
  }
}

/** Derive stage: the collection's opt-in detectors over the indexed video. A detector that fails is a partial failure. */
export function deriveHandler(dl: Datalake): JobHandler {
  const { ctx } = dl;
  return async (job, jobSignal) => {
    const { operationId } = payloadSchema.parse(JSON.parse(job.payload));
    const op = await dl.operations.byId(operationId);
    if (!op || op.done) return { type: 'finished' };
    const video = await dl.videos.byId(op.resource);
    const library = video?.library_video_id ? await ctx.videos.byId(video.library_video_id) : undefined;
    const collection = video ? await dl.collections.byId(video.collection_id) : undefined;
    if (!video || !library || !collection) {
      await dl.complete(op.id, { code: 'video_deleted', message: 'the video was deleted before derive' });
      return { type: 'finished' };
    }
    await dl.operations.setStage(op.id, 'derive', 'running', 0);
    const signal = dl.track(op.id, jobSignal);
    const problems: string[] = [];
    try {
      if (collection.safety_detector) {
        try {
          const original = library.blob ? await ctx.blobs.localFile(library.bucket, library.blob) : null;
          if (!original) throw new Error('the stored original is missing');
          const result = await runSafety({
            videoId: video.id,
            videoPath: original.path,
            durationSeconds: library.duration ?? 0,
            fps: video.fps,
            threshold: ctx.config.safety.threshold,
            maxEventSeconds: ctx.config.safety.maxEventSeconds,
            events: dl.events,
            signal,
            onFraction: (f) => dl.operations.setFraction(op.id, 'derive', f * (collection.face_recognition ? 0.9 : 1)),
          }).finally(() => original.release());
          ctx.log.info({ video: video.id, ...result }, 'safety detector done');
        } catch (err) {
          if (jobSignal.aborted) throw err;
          if (signal.aborted) return { type: 'finished' }; // deleted meanwhile
          problems.push(`safety detector failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      if (collection.face_recognition) {
        try {
          const entities = await deriveFaceEntities(ctx.sql, video.id, library.id);
          ctx.log.info({ video: video.id, entities: entities.length }, 'face entities derived');
        } catch (err) {
          problems.push(`face recognition failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    } finally {
      dl.untrack(op.id);
    }
    await dl.complete(
      op.id,
      problems.length
        ? { code: 'partial_failure', message: `the video is searchable, but ${problems.join('; ')}` }
        : null,
    );
    return { type: 'finished' };
  };
}
