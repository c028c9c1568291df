import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { UPLOAD_LIMITS } from '../../shared/api-types';
import { indexingPrice, InsufficientBalanceError } from '../accounts/billing';
import type { ServiceContext } from '../context';
import { OperationFailure } from '../ingest/operation-failure';
import { fetchSource } from '../ingest/fetch-source';
import { rateLimited } from '../domain-errors';
import { checkMedia } from '../ingest/media';
import type { JobHandler } from '../jobs/job-queue';
import { holdQueueCap } from '../ingest/admission';
import type { NewVideo, VideoRow } from './videos';

/** Job kind of POST /upload_url: fetch the original, then queue the index job. */
export const URL_UPLOAD_JOB = 'url-upload';

const payloadSchema = z.object({ videoId: z.number().int(), url: z.string() });

/** Containers interface A stores (ffprobe's demuxer name): QuickTime/MP4, Matroska/WebM, AVI, as POST /upload. */
const LIBRARY_DEMUXERS = ['mov', 'matroska', 'avi'];
const ALLOWED_CODECS: readonly string[] = UPLOAD_LIMITS.codecs;

/** A new video waiting for its original from a link, without the folder: resolved in startUrlUpload's transaction. */
export type UrlVideo = Omit<NewVideo, 'folderId'> & { blob: null };

/**
 * Records the video (UNPARSE, no original yet) and queues its fetch in one transaction, so neither exists alone.
 * Within the indexing-queue cap and the account's cap of originals being fetched at once (config
 * limits.concurrentIngests): the counts and the insert share the transaction, under the account's lock, so concurrent
 * requests (on any replica) cannot pass them together.
 */
export async function startUrlUpload(
  ctx: ServiceContext,
  video: UrlVideo,
  folder: { folderId: number | undefined; uniqueId: string | undefined },
  url: string,
): Promise<VideoRow> {
  const cap = ctx.config.limits.concurrentIngests;
  return ctx.sql.transaction(async (tx) => {
    await holdQueueCap(ctx, tx, video.accountId);
    if ((await ctx.videos.fetching(video.accountId, tx)) >= cap) {
      throw rateLimited(15, `${cap} videos are still being fetched from their links; wait for one to finish.`);
    }
    const folderId = await ctx.folders.resolve(video.accountId, folder.folderId, folder.uniqueId, tx);
    const row = await ctx.videos.insert({ ...video, folderId }, undefined, tx);
    await ctx.jobs.enqueue(URL_UPLOAD_JOB, row.video_no, { videoId: row.id, url }, ctx.config.indexer.maxAttempts, tx);
    return row;
  });
}

/**
 * Fetches a video's original through the datalake's guarded fetcher (network.allowPrivateTargets on every hop, the
 * 3 GB limit, web pages and playlists refused), checks it as POST /upload does, charges indexing by the probed
 * duration, stores it and queues the index job. A refusal ends the job `failed`: the video becomes FAIL with the
 * reason and the callback says so (onIndexSettled); any other error is retried.
 */
export function urlUploadHandler(ctx: ServiceContext): JobHandler {
  return async (job, signal) => {
    const { videoId, url } = payloadSchema.parse(JSON.parse(job.payload));
    const row = await ctx.videos.byId(videoId);
    if (!row || row.status !== 'UNPARSE' || row.blob) return { type: 'finished' }; // deleted meanwhile, or already fetched
    await mkdir(ctx.tmpDir, { recursive: true });
    const download = join(ctx.tmpDir, `url-upload-${row.video_no}-${job.attempts}`);
    let charged = 0;
    // A video deleted while its link is being read stops the download.
    const deleted = new AbortController();
    const watch = setInterval(() => {
      ctx.videos.byId(videoId).then(
        (found) => {
          if (!found) deleted.abort(new Error('the video was deleted'));
        },
        (err: unknown) => ctx.log.warn({ err, videoId }, 'could not check whether a fetched video still exists'),
      );
    }, 1000);
    try {
      const fetched = await fetchSource(url, download, {
        signal: AbortSignal.any([signal, deleted.signal]),
        maxBytes: UPLOAD_LIMITS.maxBytes,
        allowPrivateTargets: ctx.config.network.allowPrivateTargets,
      });
      const probe = await checkMedia(download, signal);
      const demuxer = probe.container.split(',')[0] ?? '';
      if (!LIBRARY_DEMUXERS.includes(demuxer))
        throw new OperationFailure(
          'unsupported_media',
          `container ${probe.container} is not supported; allowed: mp4/mov, mkv/webm, avi`,
        );
      const codec = probe.video?.codec ?? '';
      if (!ALLOWED_CODECS.includes(codec))
        throw new OperationFailure(
          'unsupported_media',
          `video codec ${codec || 'unknown'} is not supported; allowed: h264, h265, hevc, vp9`,
        );
      const sha256 = await fileSha256(download);
      const price = indexingPrice(probe.durationSeconds);
      try {
        await ctx.billing.charge(row.account_id, price, 'upload indexing', row.video_no);
      } catch (err) {
        if (err instanceof InsufficientBalanceError) throw new OperationFailure('insufficient_balance', err.message);
        throw err;
      }
      charged = price;
      const blob = `videos/${row.video_no}/${row.video_name}`;
      const type = fetched.contentType?.split(';')[0]?.trim() ?? '';
      await ctx.blobs.adopt(row.bucket, blob, download);
      const attached = await ctx.videos.attachOriginal(row.id, {
        blob,
        contentType: /^video\//i.test(type) ? type : 'application/octet-stream',
        size: fetched.size,
        sha256,
        duration: probe.durationSeconds,
        width: probe.video?.width ?? null,
        height: probe.video?.height ?? null,
        fps: probe.video?.fps ?? null,
        codec: probe.video?.codec ?? null,
      });
      if (!attached) {
        // Deleted while it was being fetched: nothing to index, nothing to pay.
        await ctx.blobs.deletePrefix(row.bucket, `videos/${row.video_no}`);
        await ctx.billing.refund(row.account_id, charged, 'upload deleted while fetched', row.video_no);
        return { type: 'finished' };
      }
      await ctx.jobs.enqueue('index', row.video_no, { videoId: row.id }, ctx.config.indexer.maxAttempts);
      return { type: 'finished' };
    } catch (err) {
      if (charged) await ctx.billing.refund(row.account_id, charged, 'upload failed', row.video_no);
      if (signal.aborted) throw err; // shutting down: fetched again after the restart
      if (deleted.signal.aborted) return { type: 'finished' };
      if (err instanceof OperationFailure) return { type: 'failed', error: err.message };
      return { type: 'retry', error: err instanceof Error ? err.message : String(err) };
    } finally {
      clearInterval(watch);
      await rm(download, { force: true });
    }
  };
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}
