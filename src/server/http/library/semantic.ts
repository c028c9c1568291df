import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../context';
import { success } from '../envelope';

/**
 * Reelsync extension beside interface A (docs/api.md, "Semantic model slot"): GET /semantic answers the slot's state,
 * POST /semantic/download starts the model's download (or goes on with it) and answers the state at once.
 */
export function registerSemantic(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/semantic', async () => success(await ctx.semantic.state()));
  app.post('/semantic/download', async () => success(await ctx.semantic.startDownload()));
  app.post('/semantic/cancel', async () => success(await ctx.semantic.cancelDownload()));
}
