import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { MetadataReader } from '../../common/media/exif';
import type { ServiceConfig } from '../config';
import type { ServiceContext } from '../context';
import { analyzeVideo, type AnalyzeOptions, type AnalyzeResult } from '../indexer/analyze-video';
import { enqueueCallback } from './callback-worker';
import type { VideoRow } from '../library/videos';
import { markIndexFailed, storeCaptureMetadata } from './index-rows';
import { persistIndex } from './persist-index';
import type { JobOutcome } from '../../shared/job-outcome';
import type { JobHandler, JobRow } from './job-queue';

const payloadSchema = z.object({ videoId: z.number().int() });

export type Analyze = (opts: AnalyzeOptions) => Promise<AnalyzeResult>;

/** Seconds an index job may run: a multiple of the video's (trusted, priced) duration plus a floor. */
export function indexTimeLimit(config: ServiceConfig['indexer'], durationSeconds: number | null): number {
  return config.timeLimitPerVideoSecond * Math.max(0, durationSeconds ?? 0) + config.timeLimitFloorSeconds;
}

class IndexTimeLimit extends Error {
  constructor(limit: number, config: ServiceConfig['indexer'], durationSeconds: number | null) {
    super(
      `indexing stopped: it ran past its time limit of ${Math.round(limit * 10) / 10} s (${config.timeLimitPerVideoSecond} x the video's ` +
        `${Math.round((durationSeconds ?? 0) * 10) / 10} s + ${config.timeLimitFloorSeconds} s)`,
    );
    this.name = 'IndexTimeLimit';
  }
}

/** Index job: analyze the stored original, store keyframes and index rows, mark PARSE, send the callback. */
export function indexHandler(ctx: ServiceContext, analyze: Analyze = analyzeVideo, exif?: MetadataReader): JobHandler {
  return async (job, signal) => {
    const { videoId } = payloadSchema.parse(JSON.parse(job.payload));
    const row = await ctx.videos.byId(videoId);
    if (!row || row.status !== 'UNPARSE') return { type: 'finished' }; // deleted meanwhile, or already done
    // A local file for ffmpeg: the stored one on disk, a streamed copy in tmp/ from S3.
    const original = row.blob ? await ctx.blobs.localFile(row.bucket, row.blob) : null;
    if (!original) return { type: 'failed', error: 'the stored original is missing' };
    const videoPath = original.path;
    let workDir: string;
    try {
      if (exif) await fillCaptureMetadata(ctx, exif, row, videoPath);
      await mkdir(ctx.tmpDir, { recursive: true });
      workDir = await mkdtemp(join(ctx.tmpDir, `index-${row.video_no}-`));
    } catch (err) {
      await original.release();
      throw err;
    }
    let lastWrite = 0;
    const limit = indexTimeLimit(ctx.config.indexer, row.duration);
    const overtime = new AbortController();
    const overtimeError = new IndexTimeLimit(limit, ctx.config.indexer, row.duration);
    // setTimeout fires at once past 2^31 - 1 ms (~24.8 days); no limit that long is worth keeping.
    const timer = setTimeout(() => overtime.abort(overtimeError), Math.min(limit * 1000, 2 ** 31 - 1));
    try {
      const result = await analyze({
        videoPath,
        workDir,
        transcriptionPrompt: row.transcription_prompt ?? undefined,
        signal: AbortSignal.any([signal, overtime.signal]),
        onProgress: (percent) => {
          const now = Date.now();
          if (now - lastWrite < 250 && percent < 100) return;
          lastWrite = now;
          ctx.videos
            .setProgress(row.id, Math.min(95, percent * 0.95))
            .catch((err: unknown) => ctx.log.warn({ err, videoNo: row.video_no }, 'could not store indexing progress'));
        },
      });
      if (!(await ctx.videos.byId(videoId))) return { type: 'finished' };
      await persistIndex(ctx, row, result);
      // The keyframes are stored: embed them when the semantic model is ready, beside the next jobs (never fails or
      // holds this one: after a download the backlog may be a whole library).
      void ctx.semantic.embedPending();
      ctx.log.info({ videoNo: row.video_no, segments: result.segments.length }, 'indexed');
      for (const f of result.failures)
        ctx.log.warn(
          { videoNo: row.video_no, analyzer: f.analyzer, segment: f.segmentIndex, err: f.message },
          'analyzer failed on part of the video',
        );
      if (row.callback) enqueueCallback(ctx, row.account_id, row.callback, row.video_no, 'PARSE');
      return { type: 'finished' };
    } catch (err) {
      if (signal.aborted) throw err;
      // Over its time limit the job fails for good: another attempt would spend the same time again.
      if (overtime.signal.aborted) return { type: 'failed', error: overtimeError.message };
      return { type: 'retry', error: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
      await rm(workDir, { recursive: true, force: true });
      await original.release();
    }
  };
}

/** Probe step: camera model, GPS and capture time from the file itself (exiftool) where the upload gave none. */
async function fillCaptureMetadata(
  ctx: ServiceContext,
  exif: MetadataReader,
  row: VideoRow,
  videoPath: string,
): Promise<void> {
  if (row.camera_model && row.datetime_taken && row.latitude !== null) return;
  storeCaptureMetadata(ctx.db, row.id, await exif.read(videoPath));
  Object.assign(row, await ctx.videos.byId(row.id));
}

/** When an index job ends without success, the video becomes FAIL with the cause, and the callback says so. */
export function onIndexSettled(ctx: ServiceContext) {
  return async (job: JobRow, outcome: JobOutcome): Promise<void> => {
    if (outcome.type !== 'failed') return;
    const { videoId } = payloadSchema.parse(JSON.parse(job.payload));
    const row = await ctx.videos.byId(videoId);
    if (!row || row.status !== 'UNPARSE') return;
    markIndexFailed(ctx.db, row.id, outcome.error);
    ctx.log.warn({ videoNo: row.video_no, err: outcome.error }, 'indexing failed');
    if (row.callback) enqueueCallback(ctx, row.account_id, row.callback, row.video_no, 'FAIL');
  };
}
