import { z } from 'zod';
import type { MetadataReader } from '../../common/media/exif';
import type { ServiceContext } from '../context';
import { analyzeVideo } from '../indexer/analyze-video';
import type { AnalyzerFailure } from '../indexer/run-analyzers';
import { enqueueCallback } from './callback-worker';
import type { VideoRow } from '../library/videos';
import { analyzeStored, type Analyze } from './analyze-stored';
import { markIndexFailed, storeCaptureMetadata } from './index-rows';
import { persistIndex } from './persist-index';
import type { JobOutcome } from '../../shared/job-outcome';
import type { JobHandler, JobRow } from './job-queue';

export type { Analyze } from './analyze-stored';

const payloadSchema = z.object({ videoId: z.number().int() });

/** Index job: analyze the stored original, store keyframes and index rows, mark PARSE, send the callback. */
export function indexHandler(ctx: ServiceContext, analyze: Analyze = analyzeVideo, exif?: MetadataReader): JobHandler {
  return async (job, signal, lease) => {
    const { videoId } = payloadSchema.parse(JSON.parse(job.payload));
    const row = await ctx.videos.byId(videoId);
    if (!row || row.status !== 'UNPARSE') return { type: 'finished' }; // deleted meanwhile, or already done
    let lastWrite = 0;
    return analyzeStored(ctx, row, analyze, signal, {
      prepare: exif ? (videoPath) => fillCaptureMetadata(ctx, exif, row, videoPath) : undefined,
      onProgress: (percent) => {
        const now = Date.now();
        if (now - lastWrite < 250 && percent < 100) return;
        lastWrite = now;
        ctx.videos
          .setProgress(row.id, Math.min(95, percent * 0.95))
          .catch((err: unknown) => ctx.log.warn({ err, videoNo: row.video_no }, 'could not store indexing progress'));
      },
      persist: async (result) => {
        if (!(await ctx.videos.byId(videoId))) return { type: 'finished' };
        await persistIndex(ctx, row, result, async (tx) => {
          // A worker whose lease passed (another worker has the job) commits nothing: the video is indexed once.
          await lease.hold(tx);
          if (row.callback) await enqueueCallback(ctx, row.account_id, row.callback, row.video_no, 'PARSE', tx);
        });
        // The keyframes are stored: embed them when the semantic model is ready, beside the next jobs (never fails or
        // holds this one: after a download the backlog may be a whole library).
        void ctx.semantic.embedPending();
        ctx.log.info({ videoNo: row.video_no, segments: result.segments.length }, 'indexed');
        logAnalyzerFailures(ctx, row, result.failures);
        return { type: 'finished' };
      },
    });
  };
}

/** One warning per analyzer that failed on part of the video (the rest of the index is stored). */
export function logAnalyzerFailures(ctx: ServiceContext, row: VideoRow, failures: readonly AnalyzerFailure[]): void {
  for (const f of failures)
    ctx.log.warn(
      { videoNo: row.video_no, analyzer: f.analyzer, segment: f.segmentIndex, err: f.message },
      'analyzer failed on part of the video',
    );
}

/** Probe step: camera model, GPS and capture time from the file itself (exiftool) where the upload gave none. */
async function fillCaptureMetadata(
  ctx: ServiceContext,
  exif: MetadataReader,
  row: VideoRow,
  videoPath: string,
): Promise<void> {
  if (row.camera_model && row.datetime_taken && row.latitude !== null) return;
  await storeCaptureMetadata(ctx.sql, row.id, await exif.read(videoPath));
  Object.assign(row, await ctx.videos.byId(row.id));
}

/** When an index job ends without success, the video becomes FAIL with the cause, and the callback says so. */
export function onIndexSettled(ctx: ServiceContext) {
  return async (job: JobRow, outcome: JobOutcome): Promise<void> => {
    if (outcome.type !== 'failed') return;
    const { videoId } = payloadSchema.parse(JSON.parse(job.payload));
    const row = await ctx.videos.byId(videoId);
    if (!row || row.status !== 'UNPARSE') return;
    await markIndexFailed(ctx.sql, row.id, outcome.error);
    ctx.log.warn({ videoNo: row.video_no, err: outcome.error }, 'indexing failed');
    if (row.callback) await enqueueCallback(ctx, row.account_id, row.callback, row.video_no, 'FAIL');
  };
}
