import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../../context';
import { success } from '../envelope';
import { accountOf } from './auth';
import { parseOr400 } from './validate';

const name = z.string().trim().min(1, 'name is required').max(200, 'name must be at most 200 characters');
const folderParam = z.object({
  id: z
    .string()
    .regex(/^-?\d{1,12}$/, 'folder id must be an integer')
    .transform(Number),
});

/** Folders: POST /folders, GET /folders, PATCH /folders/:id (rename), DELETE /folders/:id (empty folders only). */
export function registerFolders(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/folders', async (request) => {
    const body = parseOr400(z.object({ name }), request.body);
    return success(ctx.folders.create(accountOf(request).id, body.name));
  });

  app.get('/folders', async (request) => success(ctx.folders.list(accountOf(request).id)));

  app.patch('/folders/:id', async (request) => {
    const { id } = parseOr400(folderParam, request.params);
    const body = parseOr400(z.object({ name }), request.body);
    return success(ctx.folders.rename(accountOf(request).id, id, body.name));
  });

  app.delete('/folders/:id', async (request) => {
    const { id } = parseOr400(folderParam, request.params);
    ctx.folders.delete(accountOf(request).id, id);
    return success({ folder_id: id, deleted: true });
  });
}
