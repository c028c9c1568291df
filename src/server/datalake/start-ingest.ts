import { newVideoNo } from '../library/videos';
import { INGEST_JOB, type Datalake } from './datalake';
import type { DlVideoRow, SourceType } from './dl-videos';
import type { OperationRow } from './operations';
import type { Sql } from '../storage/sql';

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

/** Creates the video and its ingest operation and queues the preprocess stage; synchronous, so idempotency holds. */
export function startIngest(
  dl: Datalake,
  s: IngestStart,
  videoId = newVideoId(),
): Promise<{ video: DlVideoRow; op: OperationRow }> {
  return dl.ctx.sql.transaction(async (tx) => {
    const video = dl.videos.insert({
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
    });
    const op = await queueIngest(dl, video, s, tx);
    return { video: dl.videos.byId(video.id) ?? video, op };
  });
}

/** The ingest operation for an existing video (a finished resumable upload, or a new one). */
export async function queueIngest(
  dl: Datalake,
  video: DlVideoRow,
  s: { accountId: number; callbackUrl: string | null; idempotencyKey: string | null; requestHash: string | null },
  on?: Sql,
): Promise<OperationRow> {
  const op = dl.operations.create({
    accountId: s.accountId,
    kind: 'ingest',
    resource: video.id,
    idempotencyKey: s.idempotencyKey,
    requestHash: s.requestHash,
    callbackUrl: s.callbackUrl,
  });
  dl.videos.setOperation(video.id, op.id);
  dl.videos.setStatus(video.id, 'processing');
  await dl.ctx.jobs.enqueue(INGEST_JOB, op.id, { operationId: op.id }, 3, on);
  return op;
}
