import { isAbsolute } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../../context';
import { success } from '../envelope';
import { parseOr400 } from './validate';

/** A folder or .zip/.tar on the service's machine (the embedded service: this computer). */
const installBody = z
  .object({
    path: z
      .string()
      .min(1)
      .max(4096)
      .refine((p) => isAbsolute(p) && !p.includes('\0'), 'give the full path of the folder or archive'),
  })
  .strict();

/**
 * Reelsync extension beside interface A (docs/api.md, "Semantic model slot"): GET /semantic answers the slot's state,
 * POST /semantic/download starts the model's download (or goes on with it) and answers the state at once,
 * POST /semantic/install checks a folder or archive holding the model and copies it in (the state answers progress).
 */
export function registerSemantic(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/semantic', async () => success(await ctx.semantic.state()));
  app.post('/semantic/download', async () => success(await ctx.semantic.startDownload()));
  app.post('/semantic/cancel', async () => success(await ctx.semantic.cancelDownload()));
  app.post('/semantic/install', async (request) => {
    const { path } = parseOr400(installBody, request.body);
    return success(await ctx.semantic.installFrom(path));
  });
}
