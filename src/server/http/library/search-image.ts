import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRICES_MICRO_USD, SEARCH_LIMITS } from '../../../shared/api-types';
import type { Account } from '../../accounts/accounts';
import type { ServiceContext } from '../../context';
import { FaceQueryPool } from '../../search/face-query-pool';
import { searchFaces } from '../../search/face-search';
import { readImageHeader, type ImageHeader } from '../../search/image-header';
import { badRequest, rateLimited, success } from '../envelope';
import { discard, drainParts, malformed, nextPart } from '../multipart-drain';
import { accountOf } from './auth';
import { imagePage, searchBody, type SearchBody } from './search-body';
import { parseOr400 } from './validate';

const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const imageFields = z.object({
  top_k: z.coerce.number().int().min(1).max(SEARCH_LIMITS.topKMax).default(20),
  page: z.coerce.number().int().min(1).default(1),
});

/**
 * POST /search_image: JSON body = BY_IMAGE text search over keyframes; multipart with an image `file` = search by
 * photo, ranking keyframes by face similarity to the faces in the photo.
 */
export function registerSearchImage(
  app: FastifyInstance,
  ctx: ServiceContext,
  runText: (account: Account, body: SearchBody) => Promise<unknown>,
): void {
  const faceQueries = new FaceQueryPool(ctx.log.child({ module: 'photo-query' }));
  app.addHook('onClose', () => faceQueries.close());
  app.post('/search_image', async (request, reply) => {
    const account = accountOf(request);
    if (!request.isMultipart()) {
      return success(
        await runText(account, parseOr400(searchBody, { ...(request.body as object), search_type: 'BY_IMAGE' })),
      );
    }
    const wait = ctx.limits.search.take(`search:${account.id}`);
    if (wait) throw rateLimited(wait);
    const workDir = await mkdtemp(join(ctx.tmpDir, 'search-image-'));
    const parts = request.parts({ limits: { fileSize: MAX_IMAGE_BYTES } })[Symbol.asyncIterator]();
    try {
      const fields: Record<string, string> = {};
      let image: string | undefined;
      for (let next = await nextPart(parts); !next.done; next = await nextPart(parts)) {
        const part = next.value;
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        if (part.fieldname !== 'file' || image) {
          await discard(part.file);
          throw badRequest('send exactly one image as the part named "file"');
        }
        if (!part.mimetype.startsWith('image/')) {
          await discard(part.file);
          throw badRequest(`the query image must have an image/ Content-Type, got ${part.mimetype}`);
        }
        image = join(workDir, 'query-upload');
        await pipeline(part.file, createWriteStream(image)).catch((err: unknown) => {
          throw malformed(err);
        });
        if (part.file.truncated) throw badRequest('the query image is larger than 10 MB');
      }
      if (!image) throw badRequest('file (the query image) is required');
      const { top_k: topK, page } = parseOr400(imageFields, fields);
      const { format } = checkPixelBudget(await readFile(image), ctx.config.search.maxImagePixels);
      const descriptors = await faceQueries.descriptors({ path: image, format, workDir }).catch((err: unknown) => {
        throw badRequest(`the query image could not be read: ${err instanceof Error ? err.message : String(err)}`);
      });
      ctx.billing.charge(account.id, PRICES_MICRO_USD.search, 'search', 'BY_IMAGE photo');
      const hits = searchFaces(ctx.db, account.id, descriptors, SEARCH_LIMITS.topKMax);
      return success({
        ...imagePage(hits.length, page, topK, hits.slice((page - 1) * topK, page * topK)),
        faces_in_query: descriptors.length,
      });
    } catch (err) {
      if (!(await drainParts(parts))) void reply.header('connection', 'close');
      throw err;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  });
}

/**
 * Refuses a query image before anything decodes it: a small file can declare a huge canvas (a 310 KB PNG of
 * 640x65000 decodes to 125 MB of pixels, and face detection then grows the service's memory for good). The header
 * says the size; formats whose header is not read here are refused rather than trusted.
 */
function checkPixelBudget(bytes: Buffer, maxPixels: number): ImageHeader {
  const header = readImageHeader(bytes);
  if (!header) throw badRequest('the query image must be a JPEG, PNG, WebP, GIF or BMP file');
  const pixels = header.width * header.height;
  if (pixels > maxPixels) {
    throw badRequest(
      `the query image is ${header.width}x${header.height} (${(pixels / 1e6).toFixed(1)} megapixels); at most ${(maxPixels / 1e6).toFixed(1)} megapixels are accepted`,
    );
  }
  return header;
}
