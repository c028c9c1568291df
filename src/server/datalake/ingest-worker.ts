import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { InsufficientBalanceError } from '../accounts/billing';
import { bucketOf } from '../context';
import { indexingPrice } from '../accounts/billing';
import type { JobHandler } from '../jobs/job-queue';
import type { LocalBlobFile } from '../storage/blob-store';
import type { Datalake } from './datalake';
import type { DlVideoRow } from './dl-videos';
import { OperationFailure } from '../ingest/operation-failure';
import { fetchSource } from '../ingest/fetch-source';
import { checkMedia } from '../ingest/media';
import { lockRow } from '../storage/dialect';

const payloadSchema = z.object({ operationId: z.string() });

/**
 * Preprocess stage of an ingest: obtain the media (download or uploaded file), check it, charge indexing, store it as a
 * library video and queue the indexer's job (the index stage). Failures end the operation with their code.
 */
export function ingestHandler(dl: Datalake): JobHandler {
  const { ctx } = dl;
  return async (job, jobSignal) => {
    const { operationId } = payloadSchema.parse(JSON.parse(job.payload));
    const op = await dl.operations.byId(operationId);
    const video = op ? await dl.videos.byId(op.resource) : undefined;
    if (!op || op.done) return { type: 'finished' };
    if (!video) {
      await dl.complete(op.id, { code: 'video_deleted', message: 'the video is gone' });
      return { type: 'finished' };
    }
    await dl.operations.setStage(op.id, 'preprocess', 'running', 0);
    const signal = dl.track(op.id, jobSignal);
    await mkdir(ctx.tmpDir, { recursive: true });
    const download = join(ctx.tmpDir, `ingest-${video.id}-${job.attempts}`);
    let source: LocalBlobFile | null = null;
    try {
      source = await obtain(dl, video, download, op.id, signal);
      const file = source.path;
      const probe = await checkMedia(file, signal);
      if ((await dl.operations.byId(op.id))?.done) return { type: 'finished' };
      const price = indexingPrice(probe.durationSeconds);
      try {
        await ctx.billing.charge(op.account_id, price, 'datalake ingest indexing', op.id);
      } catch (err) {
        if (err instanceof InsufficientBalanceError) throw new OperationFailure('insufficient_balance', err.message);
        throw err;
      }
      await dl.operations.addCharge(op.id, price);
      const bucket = bucketOf(op.account_id);
      const blob = `videos/${video.id}/${video.filename}`;
      await ctx.blobs.adopt(bucket, blob, file);
      const collection = await dl.collections.byId(video.collection_id);
      if (!collection) throw new OperationFailure('video_deleted', 'the collection was deleted');
      // Stored under the operation's row lock, as cancel decides: a cancel either ended it before (we undo) or comes
      // after and finds the library row and the queued index job.
      const stored = await ctx.sql.transaction(async (tx) => {
        await lockRow(tx, 'dl_operations', op.id);
        if ((await dl.operations.byId(op.id, tx))?.done) return false;
        const library = await ctx.videos.insert(
          {
            accountId: op.account_id,
            folderId: collection.folder_id,
            videoName: video.filename,
            originalName: video.filename,
            bucket,
            blob,
            contentType: video.content_type ?? 'application/octet-stream',
            size: probe.sizeBytes ?? 0,
            sha256: '',
            duration: probe.durationSeconds,
            width: probe.video?.width ?? null,
            height: probe.video?.height ?? null,
            fps: probe.video?.fps ?? null,
            codec: probe.video?.codec ?? null,
            datetimeTaken: null,
            cameraModel: null,
            latitude: null,
            longitude: null,
            callback: null,
            retainOriginal: true,
            transcriptionPrompt: null,
            tags: ['datalake'],
          },
          video.id,
          tx,
        );
        await dl.videos.link(video.id, library.id, tx);
        await dl.operations.setStage(op.id, 'preprocess', 'done', undefined, tx);
        await ctx.jobs.enqueue('index', video.id, { videoId: library.id }, ctx.config.indexer.maxAttempts, tx);
        return true;
      });
      if (!stored) {
        await dl.refundOnce(op.id);
        await ctx.blobs.deletePrefix(bucket, `videos/${video.id}`);
        await dl.uploads.remove(video);
        return { type: 'finished' };
      }
      await dl.uploads.remove(video);
      return { type: 'finished' };
    } catch (err) {
      if (jobSignal.aborted) throw err; // shutting down: the job runs again after the restart
      if ((await dl.operations.byId(op.id))?.done) return { type: 'finished' }; // cancelled or deleted meanwhile
      await dl.refundOnce(op.id);
      const failure =
        err instanceof OperationFailure
          ? err
          : new OperationFailure('internal', err instanceof Error ? err.message : String(err));
      if (failure.code === 'internal')
        ctx.log.error({ operation: op.id, err: failure.message }, 'ingest preprocess failed');
      await dl.complete(op.id, { code: failure.code, message: failure.message });
      await dl.uploads.remove(video);
      return { type: 'finished' };
    } finally {
      dl.untrack(op.id);
      await source?.release();
      await rm(download, { force: true });
    }
  };
}

async function obtain(
  dl: Datalake,
  video: DlVideoRow,
  download: string,
  operationId: string,
  signal: AbortSignal,
): Promise<LocalBlobFile> {
  switch (video.source_type) {
    case 'url': {
      if (!video.source_url) throw new OperationFailure('source_unresolved', 'the video has no source_url');
      let shown = 0;
      const onProgress = (fraction: number): void => {
        if (fraction - shown < 0.02) return;
        shown = fraction;
        dl.operations
          .setFraction(operationId, 'preprocess', fraction * 0.9)
          .catch((err: unknown) => dl.ctx.log.warn({ operation: operationId, err }, 'cannot record progress'));
      };
      await fetchSource(video.source_url, download, {
        signal,
        onProgress,
        allowPrivateTargets: dl.ctx.config.network.allowPrivateTargets,
      });
      return { path: download, release: () => Promise.resolve() };
    }
    case 'file':
    case 'resumable':
    case 'stream': {
      const upload = await dl.uploads.open(video);
      if (!upload) throw new OperationFailure('source_unresolved', 'the uploaded file is gone');
      return upload;
    }
    default: {
      const never: never = video.source_type;
      throw new Error(`unknown source type ${String(never)}`);
    }
  }
}
