import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Datalake } from '../../datalake/datalake';
import { missing } from '../../datalake/errors';
import { newestFirst, pageRequest } from '../../datalake/paging';
import { requestCollectionDelete } from '../../datalake/purge-requests';
import type { CollectionList, CollectionRecord, OperationRecord } from './answers';
import { idParam, limitParam } from './parse';
import { answer, datalakeRoute } from './route';

const createBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    safety_detector: z.boolean().default(false),
    face_recognition: z.boolean().default(false),
  })
  .strict();

const listQuery = z.object({ limit: limitParam(20), cursor: z.string().optional() });

export function registerCollections(app: FastifyInstance, dl: Datalake): void {
  datalakeRoute(app, {
    method: 'POST',
    url: '/collections',
    body: createBody,
    status: 201,
    response: answer<CollectionRecord>(),
    handler: async ({ account, body }) =>
      dl.collections.record(
        await dl.collections.create(account.id, body.name, body.safety_detector, body.face_recognition),
      ),
  });

  datalakeRoute(app, {
    method: 'GET',
    url: '/collections',
    query: listQuery,
    response: answer<CollectionList>(),
    handler: async ({ account, query }) => {
      const page = await dl.collections.list(account.id, pageRequest(newestFirst, query.limit, query.cursor));
      return {
        collections: await Promise.all(page.rows.map((r) => dl.collections.record(r))),
        next_cursor: page.nextCursor,
      };
    },
  });

  datalakeRoute(app, {
    method: 'GET',
    url: '/collections/:id',
    params: idParam,
    response: answer<CollectionRecord>(),
    handler: async ({ account, params }) => {
      const row = await dl.collections.get(account.id, params.id);
      if (!row) throw missing('collection');
      return dl.collections.record(row);
    },
  });

  /** 202 with a collection_delete operation whose purge stage removes every video of the collection. */
  datalakeRoute(app, {
    method: 'DELETE',
    url: '/collections/:id',
    params: idParam,
    status: 202,
    response: answer<OperationRecord>(),
    handler: async ({ account, params }) =>
      dl.operations.record(await requestCollectionDelete(dl, account.id, params.id)),
  });
}
