import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PURGE_JOB, type Datalake } from '../../datalake/datalake';
import { missing } from '../../datalake/errors';
import { newestFirst, pageRequest } from '../../datalake/paging';
import { idParam, limitParam, parse } from './parse';

const createBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    safety_detector: z.boolean().default(false),
    face_recognition: z.boolean().default(false),
  })
  .strict();

const listQuery = z.object({ limit: limitParam(20), cursor: z.string().optional() });

export function registerCollections(app: FastifyInstance, dl: Datalake): void {
  app.post('/collections', async (request, reply) => {
    const account = request.account;
    const body = parse(createBody, request.body);
    const row = dl.collections.create(account.id, body.name, body.safety_detector, body.face_recognition);
    return reply.code(201).send(dl.collections.record(row));
  });

  app.get('/collections', async (request) => {
    const account = request.account;
    const q = parse(listQuery, request.query);
    const page = dl.collections.list(account.id, pageRequest(newestFirst, q.limit, q.cursor));
    return { collections: page.rows.map((r) => dl.collections.record(r)), next_cursor: page.nextCursor };
  });

  app.get('/collections/:id', async (request) => {
    const { id } = parse(idParam, request.params);
    const row = dl.collections.get(request.account.id, id);
    if (!row) throw missing('collection');
    return dl.collections.record(row);
  });

  /** 202 with a collection_delete operation whose purge stage removes every video of the collection. */
  app.delete('/collections/:id', async (request, reply) => {
    const account = request.account;
    const { id } = parse(idParam, request.params);
    const row = dl.collections.get(account.id, id);
    if (!row) throw missing('collection');
    const running = dl.operations.activeFor(id, 'collection_delete');
    if (running) return reply.code(202).send(dl.operations.record(running));
    const op = dl.operations.create({ accountId: account.id, kind: 'collection_delete', resource: id });
    dl.collections.markDeleting(id);
    dl.ctx.jobs.enqueue(PURGE_JOB, op.id, { operationId: op.id }, 3);
    return reply.code(202).send(dl.operations.record(op));
  });
}
