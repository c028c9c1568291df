import { rm, stat, writeFile } from 'node:fs/promises';
import type { Account } from '../accounts/accounts';
import { safeFileName } from '../ingest/file-names';
import type { Datalake } from './datalake';
import type { DlVideoRow } from './dl-videos';
import { DatalakeError } from './errors';
import { OperationFailure } from '../ingest/operation-failure';
import { admit, conflict, targetCollection } from './ingest-admission';
import { checkMedia, extensionAllowed, mayBeVideoType } from '../ingest/media';
import type { OperationRow } from './operations';
import { lockRow } from '../storage/dialect';
import { newVideoId, queueIngest } from './start-ingest';
import { claimSession } from './session-claims';
import { openSession } from './upload-sessions';

/** What a client declares when it opens a resumable upload. */
export interface NewSession {
  collectionId: string;
  filename: string | undefined;
  contentType: string | undefined;
  size: number;
  fps: number;
  metadata: Record<string, unknown>;
  callbackUrl: string | null;
  idempotencyKey: string | null;
}

/** Bytes of a session received so far (its part file's size). */
export async function receivedBytes(dl: Datalake, videoId: string): Promise<number> {
  return (await stat(dl.uploadPath(videoId)).catch(() => null))?.size ?? 0;
}

/**
 * Opens a resumable upload (admission in openSession), or finds the one opened before with the same idempotency_key
 * (`replayed`, with the bytes it holds).
 */
export async function createSession(
  dl: Datalake,
  account: Account,
  s: NewSession,
): Promise<{ video: DlVideoRow; offset: number; replayed: boolean }> {
  const filename = safeFileName(s.filename ?? 'video');
  if (!mayBeVideoType(s.contentType) || !extensionAllowed(filename)) {
    throw new DatalakeError(
      415,
      'unsupported_media',
      `${filename} (${s.contentType ?? 'no type'}) is not a supported video`,
    );
  }
  if (s.idempotencyKey) {
    const previous = await dl.videos.byIdempotencyKey(account.id, s.idempotencyKey);
    if (previous) return { video: previous, offset: await receivedBytes(dl, previous.id), replayed: true };
  }
  await targetCollection(dl, account, s.collectionId);
  const id = newVideoId();
  const opened = await openSession(dl, {
    id,
    accountId: account.id,
    collectionId: s.collectionId,
    status: 'uploading',
    sourceType: 'resumable',
    sourceUrl: null,
    filename,
    contentType: s.contentType ?? null,
    uploadSize: s.size,
    fps: s.fps,
    metadata: s.metadata,
    callbackUrl: s.callbackUrl,
    idempotencyKey: s.idempotencyKey,
  });
  if (opened.replayed) return { ...opened, offset: await receivedBytes(dl, opened.video.id) };
  try {
    await writeFile(dl.uploadPath(id), '');
  } catch (err) {
    await dl.videos.remove(id);
    throw err;
  }
  return { video: opened.video, offset: 0, replayed: false };
}

/** The account's resumable upload `id`; 404 (saying sessions expire) when there is none. */
export async function findSession(dl: Datalake, accountId: number, id: string): Promise<DlVideoRow> {
  const video = await dl.videos.get(accountId, id);
  if (!video || video.source_type !== 'resumable') {
    const idle = Math.round(dl.ctx.config.limits.uploadSessionIdleMs / 1000);
    throw new DatalakeError(
      404,
      'not_found',
      `upload session not found (a session that receives nothing for ${idle} s expires with its bytes)`,
    );
  }
  return video;
}

/**
 * Starts the ingest of a complete upload: its operation (the same one when finalized twice). Not while a chunk or
 * another finalize of it is in progress; a file that is not a supported video fails the session (415).
 */
export async function finalizeSession(dl: Datalake, account: Account, video: DlVideoRow): Promise<OperationRow> {
  const existing = video.operation_id ? await dl.operations.byId(video.operation_id) : undefined;
  if (existing) return existing;
  if (video.status !== 'uploading') throw conflict(`the video is ${video.status}`);
  const claim = await claimSession(dl.ctx.sql, dl.ctx.log, video.id);
  if (!claim) throw conflict('a chunk or a finalize of this upload is in progress');
  try {
    // A finalize that held the claim before this one queued the ingest (and staged the bytes): its operation answers.
    const current = await dl.videos.byId(video.id);
    const queued = current?.operation_id ? await dl.operations.byId(current.operation_id) : undefined;
    if (queued) return queued;
    return await finalizeClaimed(dl, account, video);
  } finally {
    await claim.release();
  }
}

async function finalizeClaimed(dl: Datalake, account: Account, video: DlVideoRow): Promise<OperationRow> {
  const offset = await receivedBytes(dl, video.id);
  if (offset !== video.upload_size)
    throw conflict(`the upload is incomplete: ${offset} of ${video.upload_size} bytes received`, { offset });
  await targetCollection(dl, account, video.collection_id);
  await admit(dl, account);
  try {
    await checkMedia(dl.uploadPath(video.id));
  } catch (err) {
    if (err instanceof OperationFailure) {
      await dl.videos.setStatus(video.id, 'failed');
      await rm(dl.uploadPath(video.id), { force: true });
      throw new DatalakeError(415, 'unsupported_media', err.message);
    }
    throw err;
  }
  // Staged before the ingest is queued (a worker on any machine reads it from the blob store); put back when no
  // ingest was queued, so the session stays whole.
  await dl.uploads.stage(video);
  // Decided under the video's row lock: a finalize of it in another process either queued first (its operation is
  // returned) or waits for this one's.
  const queued = dl.ctx.sql.transaction(async (tx) => {
    await lockRow(tx, 'dl_videos', video.id);
    const again = await dl.videos.byId(video.id, tx);
    const raced = again?.operation_id ? await dl.operations.byId(again.operation_id, tx) : undefined;
    if (raced) return raced;
    if (again?.status !== 'uploading') throw conflict(`the video is ${again?.status ?? 'gone'}`);
    return queueIngest(
      dl,
      video,
      { accountId: account.id, callbackUrl: video.callback_url, idempotencyKey: null, requestHash: null },
      tx,
    );
  });
  return queued.catch(async (err: unknown) => {
    await dl.uploads.unstage(video);
    throw err;
  });
}
