import { createWriteStream } from 'node:fs';
import { truncate } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATALAKE_BASE_PATH } from '../../../shared/api-types';
import type { Account } from '../../accounts/accounts';
import type { Datalake } from '../../datalake/datalake';
import type { DlVideoRow } from '../../datalake/dl-videos';
import { DatalakeError, invalid } from '../../datalake/errors';
import { createSession, finalizeSession, findSession, receivedBytes } from '../../datalake/resumable-ingest';
import { claimSession } from '../../datalake/session-claims';
import type { OperationRecord } from './answers';
import { ingestFields } from './ingest-fields';
import { actionTarget, conflict, idParam, parse, targetParam } from './parse';
import { answer, datalakeRoute } from './route';

export const CHUNK_SIZE = 8 * 1024 * 1024;

const session = (request: FastifyRequest, v: DlVideoRow, offset: number) => ({
  video_id: v.id,
  upload_url: `${request.protocol}://${request.host}${DATALAKE_BASE_PATH}/uploads/${v.id}`,
  chunk_size: CHUNK_SIZE,
  offset,
  size: v.upload_size ?? 0,
  complete: offset === v.upload_size,
  operation: v.operation_id,
});

/** POST /videos?upload=resumable: 201 {video_id, upload_url, chunk_size, ...}; the same idempotency_key returns the same session. */
export async function createResumable(
  dl: Datalake,
  account: Account,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<UploadSession> {
  const f = parse(ingestFields, request.body);
  if (f.source_url) throw invalid('a resumable upload has no source_url');
  if (f.size === undefined) throw invalid('size (total bytes of the file) is required for a resumable upload');
  const { video, offset, replayed } = await createSession(dl, account, {
    collectionId: f.collection_id,
    filename: f.filename,
    contentType: f.content_type,
    size: f.size,
    fps: f.fps,
    metadata: f.metadata,
    callbackUrl: f.callback_url ?? null,
    idempotencyKey: f.idempotency_key ?? null,
  });
  void reply.code(replayed ? 200 : 201);
  return session(request, video, offset);
}

export type UploadSession = ReturnType<typeof session>;

const RANGE = /^bytes (\d{1,13})-(\d{1,13})\/(\d{1,13})$/;

export function registerResumable(app: FastifyInstance, dl: Datalake): void {
  datalakeRoute(app, {
    method: 'GET',
    url: '/uploads/:id',
    params: idParam,
    response: answer<UploadSession>(),
    handler: async ({ account, params, request }) => {
      const video = await findSession(dl, account.id, params.id);
      return session(
        request,
        video,
        video.status === 'uploading' ? await receivedBytes(dl, video.id) : (video.upload_size ?? 0),
      );
    },
  });

  /**
   * One chunk: Content-Range `bytes START-END/TOTAL`, START equal to the received offset. Bytes are appended as they
   * arrive, so a dropped connection keeps what reached the disk; GET on the upload_url then says where to resume.
   */
  datalakeRoute(app, {
    method: 'PUT',
    url: '/uploads/:id',
    params: idParam,
    response: answer<UploadSession>(),
    handler: async ({ account, params, request }) => {
      const video = await findSession(dl, account.id, params.id);
      if (video.status !== 'uploading') throw conflict('the upload is already finalized');
      const header = request.headers['content-range'];
      const m = typeof header === 'string' ? RANGE.exec(header) : null;
      if (!m) throw invalid('Content-Range: bytes START-END/TOTAL is required');
      const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
      if (total !== video.upload_size)
        throw invalid(`the total in Content-Range must be the session size ${video.upload_size}`);
      if (end < start || end >= total) throw invalid('Content-Range END must be at least START and below TOTAL');
      // One chunk at a time per session, on any replica: a second concurrent PUT would interleave bytes.
      const claim = await claimSession(dl.ctx.sql, dl.ctx.log, video.id);
      if (!claim) throw conflict('another chunk of this upload is in progress');
      const path = dl.uploadPath(video.id);
      try {
        const offset = await receivedBytes(dl, video.id);
        if (start !== offset) throw conflict(`the chunk must start at the received offset ${offset}`, { offset });
        const expected = end - start + 1;
        let received = 0;
        const limit = new Transform({
          transform(chunk: Buffer, _enc, done) {
            received += chunk.length;
            done(
              received > expected
                ? invalid(`the chunk carries more than the ${expected} bytes of its Content-Range`)
                : null,
              chunk,
            );
          },
        });
        try {
          await pipeline(request.raw, limit, createWriteStream(path, { flags: offset === 0 ? 'w' : 'r+', start }));
        } catch (err) {
          if (err instanceof DatalakeError) await truncate(path, offset);
          throw err;
        }
        if (received !== expected) {
          await truncate(path, offset);
          throw invalid(`the chunk carried ${received} bytes, its Content-Range says ${expected}`);
        }
        await dl.videos.touch(video.id);
        return session(request, video, await receivedBytes(dl, video.id));
      } finally {
        await claim.release();
      }
    },
  });

  /** Starts the ingest of a complete upload: 202 with the operation (the same one when finalized twice). */
  datalakeRoute(app, {
    method: 'POST',
    url: '/videos/:target',
    params: targetParam,
    status: 202,
    response: answer<OperationRecord>(),
    handler: async ({ account, params }) => {
      // The id left of `:finalize` is held to the same bounds as an {id} path parameter.
      const { id } = parse(idParam, { id: actionTarget(params, 'finalize') });
      const video = await findSession(dl, account.id, id);
      // The probe and the staging (a multipart upload of the whole file to S3) take a while on a big file.
      const op = await finalizeSession(dl, account, video);
      return dl.operations.record(op);
    },
  });
}
