import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { folderSchema } from '../../../shared/api-types';
import type { ServiceContext } from '../../context';
import { libraryRoute } from './route';

const name = z.string().trim().min(1, 'name is required').max(200, 'name must be at most 200 characters');
const nameBody = z.object({ name });
const folderParam = z.object({
  id: z
    .string()
    .regex(/^-?\d{1,12}$/, 'folder id must be an integer')
    .transform(Number),
});

/** Folders: POST /folders, GET /folders, PATCH /folders/:id (rename), DELETE /folders/:id (empty folders only). */
export function registerFolders(app: FastifyInstance, ctx: ServiceContext): void {
  libraryRoute(app, {
    method: 'POST',
    url: '/folders',
    body: nameBody,
    response: folderSchema,
    handler: async ({ account, body }) => ctx.folders.create(account.id, body.name),
  });

  libraryRoute(app, {
    method: 'GET',
    url: '/folders',
    response: z.array(folderSchema),
    handler: async ({ account }) => ctx.folders.list(account.id),
  });

  libraryRoute(app, {
    method: 'PATCH',
    url: '/folders/:id',
    params: folderParam,
    body: nameBody,
    response: folderSchema,
    handler: async ({ account, params, body }) => ctx.folders.rename(account.id, params.id, body.name),
  });

  libraryRoute(app, {
    method: 'DELETE',
    url: '/folders/:id',
    params: folderParam,
    response: z.object({ folder_id: z.number().int(), deleted: z.literal(true) }),
    handler: async ({ account, params }) => {
      await ctx.folders.delete(account.id, params.id);
      return { folder_id: params.id, deleted: true as const };
    },
  });
}
