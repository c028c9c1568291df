import { newVideoNo } from '../ingest/video-numbers';
import type { Sql } from '../storage/sql';
import { INGEST_JOB, type Datalake } from './datalake';
import type { DlVideoRow, SourceType } from './dl-videos';
import { replayed } from './ingest-admission';
import type { OperationRow } from './operations';
import { lockRow } from '../storage/dialect';

export interface IngestStart {
  accountId: number;
  collectionId: string;
  sourceType: SourceType;
  sourceUrl: string | null;
  filename: string;
  contentType: string | null;
  fps: number;
  metadata: Record<string, unknown>;
  callbackUrl: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  stream?: { id: string; offset: number };
}

/** A new datalake video id; the same id names its library row (videoNo) once stored. */
export const newVideoId = newVideoNo;

/**
 * Creates the video and its ingest operation and queues the preprocess stage, in one transaction under the account's
 * row lock; an operation that another request created with the same idempotency key meanwhile is returned instead
 * (`replayed`, nothing created), so concurrent retries ingest once.
 */
export async function startIngest(
  dl: Datalake,
  s: IngestStart,
  videoId = newVideoId(),
): Promise<{ op: OperationRow; replayed: boolean }> {
  return dl.ctx.sql.transaction(async (tx) => {
    await lockRow(tx, 'accounts', s.accountId);
    const previous = await replayed(dl, s.accountId, s.idempotencyKey ?? undefined, s.requestHash ?? '', tx);
    if (previous) return { op: previous, replayed: true };
    const video = await dl.videos.insert(
      {
        id: videoId,
        accountId: s.accountId,
        collectionId: s.collectionId,
        status: 'processing',
        sourceType: s.sourceType,
        sourceUrl: s.sourceUrl,
        filename: s.filename,
        contentType: s.contentType,
        uploadSize: null,
        fps: s.fps,
        metadata: s.metadata,
        callbackUrl: s.callbackUrl,
        idempotencyKey: null,
        stream: s.stream,
      },
      tx,
    );
    return { op: await queueIngest(dl, video, s, tx), replayed: false };
  });
}

/**
 * The ingest operation for an existing video (a finished resumable upload, or a new one). `on` is the transaction the
 * caller runs it in, which makes the operation, the video's link to it and the queued job one change.
 */
export async function queueIngest(
  dl: Datalake,
  video: DlVideoRow,
  s: { accountId: number; callbackUrl: string | null; idempotencyKey: string | null; requestHash: string | null },
  on: Sql,
): Promise<OperationRow> {
  const op = await dl.operations.create(
    {
      accountId: s.accountId,
      kind: 'ingest',
      resource: video.id,
      idempotencyKey: s.idempotencyKey,
      requestHash: s.requestHash,
      callbackUrl: s.callbackUrl,
    },
    on,
  );
  await dl.videos.setOperation(video.id, op.id, on);
  await dl.videos.setStatus(video.id, 'processing', on);
  await dl.ctx.jobs.enqueue(INGEST_JOB, op.id, { operationId: op.id }, 3, on);
  return op;
}
