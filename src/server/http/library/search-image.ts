import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SEARCH_LIMITS } from '../../../shared/api-types';
import type { ServiceContext } from '../../context';
import { libraryQuery } from '../../search/query/library-query';
import type { LibrarySearch } from '../../search/library-search';
import { badRequest, success } from '../envelope';
import { discard, drainParts, malformed, nextPart } from '../multipart-drain';
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
export function registerSearchImage(app: FastifyInstance, ctx: ServiceContext, search: LibrarySearch): void {
  app.post('/search_image', async (request, reply) => {
    const account = request.account;
    if (!request.isMultipart()) {
      const body = z.record(z.string(), z.unknown()).catch({}).parse(request.body);
      return success(await search.text(account.id, parseOr400(libraryQuery, { ...body, search_type: 'BY_IMAGE' })));
    }
    await search.takeSlot(account.id);
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
      return success(await search.byPhoto(account.id, { path: image, workDir, topK, page }));
    } catch (err) {
      if (!(await drainParts(parts))) void reply.header('connection', 'close');
      throw err;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  });
}
