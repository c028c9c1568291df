import type { ServiceContext } from '../context';
import { Collections } from './collections';
import { Deliveries } from './deliveries';
import { DlVideos, type DlVideoRow } from './dl-videos';
import type { DatalakeErrorCode } from './errors';
import { Events } from './events';
import { Operations, type OperationRow } from './operations';
import { lockRow } from '../storage/dialect';
import { Streams } from './streams';
import { UploadStaging, uploadDirOf } from './upload-staging';
import { enqueueWebhook } from './webhooks';

export const INGEST_JOB = 'dl-ingest';
export const DERIVE_JOB = 'dl-derive';
export const PURGE_JOB = 'dl-purge';

export type CancelResult = { kind: 'cancelled'; row: OperationRow } | { kind: 'too_late'; row: OperationRow };

/**
 * Interface B's state over the service database, shared by its routes and workers: stores, the in-process abort
 * handles of running preprocess steps, and the single place where an operation ends (status, refund, webhook).
 * Built once by the service's composition root (service.ts), which hands it to the workers and the routes.
 */
export class Datalake {
  readonly collections: Collections;
  readonly videos: DlVideos;
  readonly operations: Operations;
  readonly deliveries: Deliveries;
  readonly events: Events;
  readonly streams: Streams;
  /** Interface B's uploads: written by the process receiving them, staged in the blob store for the ingest. */
  readonly uploads: UploadStaging;
  readonly uploadDir: string;
  private readonly aborts = new Map<string, AbortController>();

  constructor(readonly ctx: ServiceContext) {
    this.collections = new Collections(ctx.sql);
    this.videos = new DlVideos(ctx.sql);
    this.operations = new Operations(ctx.sql);
    this.deliveries = new Deliveries(ctx.sql);
    this.events = new Events(ctx.sql);
    this.streams = new Streams(ctx.sql);
    this.uploadDir = uploadDirOf(ctx.dataDir);
    this.uploads = new UploadStaging(ctx.blobs, this.uploadDir);
  }

  uploadPath(videoId: string): string {
    return this.uploads.path(videoId);
  }

  /** An abort handle for work on an operation, aborted by cancel or delete. */
  track(operationId: string, signal: AbortSignal): AbortSignal {
    const controller = new AbortController();
    this.aborts.set(operationId, controller);
    return AbortSignal.any([signal, controller.signal]);
  }

  untrack(operationId: string): void {
    this.aborts.delete(operationId);
  }

  /** Stops work tracked under an id (a stream pull) without ending an operation. */
  abort(id: string): void {
    this.aborts.get(id)?.abort(new Error('stopped'));
  }

  /** Ends an operation once: records the outcome, sets the video's state, fires the webhook unless cancelled. */
  async complete(
    operationId: string,
    error: { code: DatalakeErrorCode; message: string } | null,
    cancelled = false,
  ): Promise<void> {
    if (await this.operations.finish(operationId, { error, cancelled }))
      await this.ended(operationId, error, cancelled);
  }

  /** What follows the one `finish` of an operation that ended it: aborts its work, sets the video's state, notifies. */
  private async ended(
    operationId: string,
    error: { code: DatalakeErrorCode; message: string } | null,
    cancelled: boolean,
  ): Promise<void> {
    this.aborts.get(operationId)?.abort(new Error('operation ended'));
    const row = await this.operations.byId(operationId);
    if (!row) return;
    if (row.kind === 'ingest') {
      const video = await this.videos.byId(row.resource);
      if (video && video.status !== 'deleting') {
        await this.videos.setStatus(
          video.id,
          cancelled ? 'cancelled' : error && error.code !== 'partial_failure' ? 'failed' : 'ready',
        );
      }
    }
    this.ctx.log.info(
      { operation: operationId, kind: row.kind, resource: row.resource, error: error?.code, cancelled },
      'operation done',
    );
    if (!cancelled && row.callback_url)
      await enqueueWebhook(this.ctx, row.account_id, row.callback_url, await this.operations.record(row));
  }

  /**
   * Gives back what an operation charged, at most once whoever asks (cancel and the worker can both try, in this
   * process or another): read and cleared under the operation's row lock, in the refund's transaction.
   */
  async refundOnce(operationId: string): Promise<void> {
    await this.ctx.sql.transaction(async (tx) => {
      await lockRow(tx, 'dl_operations', operationId);
      const row = await this.operations.byId(operationId, tx);
      const micro = await this.operations.takeCharge(operationId, tx);
      if (row && micro > 0)
        await this.ctx.billing.refund(row.account_id, micro, 'datalake ingest refund', operationId, tx);
    });
  }

  /**
   * Cancel is possible until the index stage starts. Decided and ended in one transaction under the operation's row
   * lock, the library row deleted in it too: the preprocess worker stores the video under the same lock (it either
   * finds the operation ended, or its library row is deleted here and the queued index job finds nothing to do).
   */
  async cancel(row: OperationRow): Promise<CancelResult> {
    if (row.done || row.kind !== 'ingest') return { kind: 'too_late', row };
    const cancelled = await this.ctx.sql.transaction(async (tx) => {
      await lockRow(tx, 'dl_operations', row.id);
      const current = await this.operations.byId(row.id, tx);
      if (!current || current.done || (await this.operations.indexStarted(current, tx))) return null;
      if (!(await this.operations.finish(row.id, { error: null, cancelled: true }, tx))) return null;
      const video = await this.videos.byId(row.resource, tx);
      const library = video?.library_video_id ? await this.ctx.videos.byId(video.library_video_id, tx) : undefined;
      if (library) await this.ctx.videos.delete(library.id, tx);
      return { video, library };
    });
    if (!cancelled) return { kind: 'too_late', row };
    await this.refundOnce(row.id);
    await this.ended(row.id, null, true);
    const { video, library } = cancelled;
    if (library) await this.deleteLibraryBlobs(library.bucket, library.video_no);
    if (video) await this.uploads.remove(video);
    return { kind: 'cancelled', row: (await this.operations.byId(row.id)) ?? row };
  }

  /** Removes a datalake video with everything derived from it; an unfinished ingest of it ends with video_deleted. */
  async purgeVideo(video: DlVideoRow): Promise<void> {
    const ingest = await this.operations.activeFor(video.id, 'ingest');
    await this.videos.setStatus(video.id, 'deleting');
    if (ingest)
      await this.complete(ingest.id, {
        code: 'video_deleted',
        message: 'the video was deleted before its ingest finished',
      });
    const library = video.library_video_id ? await this.ctx.videos.byId(video.library_video_id) : undefined;
    if (library) {
      await this.ctx.videos.delete(library.id);
      await this.deleteLibraryBlobs(library.bucket, library.video_no);
    }
    await this.uploads.remove(video);
    await this.videos.remove(video.id);
  }

  private async deleteLibraryBlobs(bucket: string, videoNo: string): Promise<void> {
    for (const prefix of ['videos', 'keyframes', 'posters'])
      await this.ctx.blobs.deletePrefix(bucket, `${prefix}/${videoNo}`);
  }
}
