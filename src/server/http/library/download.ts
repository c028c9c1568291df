import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { API_MESSAGES } from '../../../shared/api-types';
import { mediaTypeOf } from '../../../shared/media-types';
import type { ServiceContext } from '../../context';
import { LibraryDownloads, type PlannedDownload } from '../../library/downloads';
import { badRequest } from '../envelope';
import { parseOr400 } from './validate';

const videoNoBody = z.object({ video_no: z.string().min(1, 'video_no is required').max(100) });

/** GET ?bucket=&blob=: the contract's own messages for a missing part (no field prefix), hence not parseOr400. */
function blobQuery(request: FastifyRequest): { bucket: string; blob: string } {
  const q = z.record(z.string(), z.unknown()).catch({}).parse(request.query);
  const bucket = typeof q.bucket === 'string' ? q.bucket.trim() : '';
  const blob = typeof q.blob === 'string' ? q.blob.trim() : '';
  if (!bucket) throw badRequest(API_MESSAGES.bucketRequired);
  if (!blob) throw badRequest(API_MESSAGES.blobRequired);
  return { bucket, blob };
}

/** GET, HEAD and POST /download: the blob as a stream (a JSON envelope only on refusals). */
export function registerDownload(app: FastifyInstance, ctx: ServiceContext): void {
  const downloads = new LibraryDownloads(ctx);

  // Declared before the GET route, so fastify does not derive a HEAD from it (which would charge and stream).
  app.head('/download', async (request, reply) => {
    const { bucket, blob } = blobQuery(request);
    return answerHeaders(reply, await downloads.plan(request.account.id, bucket, blob, request.headers.range)).send();
  });

  const send = async (reply: FastifyReply, accountId: number, p: PlannedDownload): Promise<FastifyReply> => {
    if (p.kind === 'unsatisfiable') return answerHeaders(reply, p).send();
    await downloads.charge(accountId, p);
    return answerHeaders(reply, p).send(ctx.blobs.read(p.bucket, p.blob, p.range ?? undefined));
  };

  app.get('/download', async (request, reply) => {
    const { bucket, blob } = blobQuery(request);
    const { id } = request.account;
    return send(reply, id, await downloads.plan(id, bucket, blob, request.headers.range));
  });

  app.post('/download', async (request, reply) => {
    const { id } = request.account;
    const body = parseOr400(videoNoBody, request.body);
    return send(reply, id, await downloads.planVideo(id, body.video_no, request.headers.range));
  });
}

/** The headers of a successful download, the same for HEAD and GET. */
function answerHeaders(reply: FastifyReply, p: PlannedDownload): FastifyReply {
  if (p.kind === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${p.size}`);
  void reply
    .header('content-type', mediaTypeOf(p.blob) ?? 'application/octet-stream')
    .header('content-disposition', contentDisposition(p.name))
    .header('accept-ranges', 'bytes')
    .header('content-length', String(p.bytes))
    .header('cache-control', 'private, no-store');
  if (p.range) void reply.code(206).header('content-range', `bytes ${p.range.start}-${p.range.end}/${p.size}`);
  return reply;
}

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
