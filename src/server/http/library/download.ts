import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { extname } from 'node:path';
import { z } from 'zod';
import { API_MESSAGES, ENVELOPE_CODES, PRICES_MICRO_USD } from '../../../shared/api-types';
import type { Account } from '../../accounts/accounts';
import { InsufficientBalanceError } from '../../accounts/billing';
import { bucketOf, type ServiceContext } from '../../context';
import { ApiError, badRequest, notFound, rateLimited } from '../envelope';
import { parseByteRange, type ByteRange } from '../../../shared/byte-range';
import { accountOf } from './auth';
import { parseOr400 } from './validate';

const MEDIA_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
};

/** 0.12 USD per GB (10^9 bytes), rounded up to the micro-dollar. */
export function downloadPrice(bytes: number): number {
  return Math.ceil((bytes * PRICES_MICRO_USD.downloadPerGb) / 1e9);
}

export function registerDownload(app: FastifyInstance, ctx: ServiceContext): void {
  const query = (request: FastifyRequest): { bucket: string; blob: string } => {
    const q = request.query as Record<string, unknown>;
    const bucket = typeof q.bucket === 'string' ? q.bucket.trim() : '';
    const blob = typeof q.blob === 'string' ? q.blob.trim() : '';
    if (!bucket) throw badRequest(API_MESSAGES.bucketRequired);
    if (!blob) throw badRequest(API_MESSAGES.blobRequired);
    return { bucket, blob };
  };

  // Declared before the GET route, so fastify does not derive a HEAD from it (which would charge and stream).
  app.head('/download', async (request, reply) => {
    const { bucket, blob } = query(request);
    return headersOnly(reply, await prepare(ctx, accountOf(request), request, bucket, blob));
  });

  app.get('/download', async (request, reply) => {
    const { bucket, blob } = query(request);
    const account = accountOf(request);
    return send(ctx, account, reply, await prepare(ctx, account, request, bucket, blob));
  });

  app.post('/download', async (request, reply) => {
    const account = accountOf(request);
    const body = parseOr400(z.object({ video_no: z.string().min(1, 'video_no is required').max(100) }), request.body);
    const row = ctx.videos.byNo(account.id, body.video_no);
    if (!row?.blob) throw notFound();
    return send(ctx, account, reply, await prepare(ctx, account, request, row.bucket, row.blob));
  });
}

/** What a download answers: the blob with the bytes it sends (a range or all), or 416. */
type Prepared =
  | { kind: 'unsatisfiable'; size: number }
  | { kind: 'blob'; bucket: string; blob: string; size: number; range: ByteRange | null; bytes: number; name: string };

/** The checks every download method makes (rate limit, ownership, existence, range); charges nothing. */
async function prepare(
  ctx: ServiceContext,
  account: Account,
  request: FastifyRequest,
  bucket: string,
  blob: string,
): Promise<Prepared> {
  const wait = ctx.limits.download.take(`download:${account.id}`);
  if (wait) throw rateLimited(wait);
  // Another account's bucket, an invalid or escaping path, a deleted video: all the same "does not exist".
  if (bucket !== bucketOf(account.id)) throw notFound();
  const size = await ctx.blobs.size(bucket, blob);
  if (size === null) throw notFound();
  const range = parseByteRange(request.headers.range, size);
  if (range === 'unsatisfiable') return { kind: 'unsatisfiable', size };
  const bytes = range ? range.end - range.start + 1 : size;
  return { kind: 'blob', bucket, blob, size, range, bytes, name: originalName(ctx, account, blob) };
}

/** The headers of a successful download, the same for HEAD and GET. */
function answerHeaders(reply: FastifyReply, p: Prepared): FastifyReply {
  if (p.kind === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${p.size}`);
  void reply
    .header('content-type', MEDIA_TYPES[extname(p.blob).toLowerCase()] ?? 'application/octet-stream')
    .header('content-disposition', contentDisposition(p.name))
    .header('accept-ranges', 'bytes')
    .header('content-length', String(p.bytes))
    .header('cache-control', 'private, no-store');
  if (p.range) void reply.code(206).header('content-range', `bytes ${p.range.start}-${p.range.end}/${p.size}`);
  return reply;
}

/** HEAD: the headers GET would send, no body and no charge (nothing is transferred). */
function headersOnly(reply: FastifyReply, p: Prepared): FastifyReply {
  return answerHeaders(reply, p).send();
}

/** GET and POST: charged for the bytes before streaming starts. */
function send(ctx: ServiceContext, account: Account, reply: FastifyReply, p: Prepared): FastifyReply {
  if (p.kind === 'unsatisfiable') return answerHeaders(reply, p).send();
  try {
    ctx.billing.charge(account.id, downloadPrice(p.bytes), 'download', `${p.bucket}/${p.blob}`);
  } catch (err) {
    if (err instanceof InsufficientBalanceError)
      throw new ApiError(402, ENVELOPE_CODES.insufficientBalance, API_MESSAGES.downloadBalance);
    throw err;
  }
  return answerHeaders(reply, p).send(ctx.blobs.read(p.bucket, p.blob, p.range ?? undefined));
}

/** The name the user uploaded for a video blob; the blob's own last part for keyframes and posters. */
function originalName(ctx: ServiceContext, account: Account, blob: string): string {
  const m = /^videos\/([^/]+)\//.exec(blob);
  const row = m?.[1] ? ctx.videos.byNo(account.id, m[1]) : undefined;
  return row?.original_name ?? blob.split('/').pop() ?? 'download';
}

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
