import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceConfig } from '../config';
import type { ServiceContext } from '../context';
import type { AnalyzeOptions, AnalyzeResult } from '../indexer/analyze-video';
import type { VideoRow } from '../library/videos';
import type { JobOutcome } from '../../shared/job-outcome';

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

/** What an index job does around the analysis of a stored original. */
export interface StoredAnalysisSteps {
  /** Before the analysis, with the local copy of the original (capture metadata from the file itself). */
  prepare?: (videoPath: string) => Promise<void>;
  onProgress?: (percent: number) => void;
  /** Stores the result; what it throws makes the job retry. */
  persist: (result: AnalyzeResult) => Promise<JobOutcome>;
}

/**
 * Analyzes the video's stored original (a local file for ffmpeg: the stored one on disk, a streamed copy in tmp/ from
 * S3) in a scratch folder, under the index time limit, then persists the result. Over its time limit the job fails for
 * good (another attempt would spend the same time again); another error makes it retry; an abort is rethrown.
 */
export async function analyzeStored(
  ctx: ServiceContext,
  row: VideoRow,
  analyze: Analyze,
  signal: AbortSignal,
  steps: StoredAnalysisSteps,
): Promise<JobOutcome> {
  const original = row.blob ? await ctx.blobs.localFile(row.bucket, row.blob) : null;
  if (!original) return { type: 'failed', error: 'the stored original is missing' };
  const videoPath = original.path;
  let workDir: string;
  try {
    await steps.prepare?.(videoPath);
    await mkdir(ctx.tmpDir, { recursive: true });
    workDir = await mkdtemp(join(ctx.tmpDir, `index-${row.video_no}-`));
  } catch (err) {
    await original.release();
    throw err;
  }
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
      onProgress: steps.onProgress,
    });
    return await steps.persist(result);
  } catch (err) {
    if (signal.aborted) throw err;
    if (overtime.signal.aborted) return { type: 'failed', error: overtimeError.message };
    return { type: 'retry', error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
    await rm(workDir, { recursive: true, force: true });
    await original.release();
  }
}
