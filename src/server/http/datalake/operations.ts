import type { FastifyInstance } from 'fastify';
import type { Datalake } from '../../datalake/datalake';
import { missing } from '../../datalake/errors';
import { actionTarget, idParam, parse } from './parse';

export function registerOperations(app: FastifyInstance, dl: Datalake): void {
  const find = (accountId: number, params: unknown) => {
    const { id } = parse(idParam, params);
    const row = dl.operations.get(accountId, id);
    if (!row) throw missing('operation');
    return row;
  };

  app.get('/operations/:id', async (request) => dl.operations.record(find(request.account.id, request.params)));

  /** 200 {operation, cancelled: true, done: true} before the index stage; 409 with the same fields and an error after. */
  app.post('/operations/:target', async (request, reply) => {
    const row = find(request.account.id, { id: actionTarget(request.params, 'cancel') });
    const result = await dl.cancel(row);
    switch (result.kind) {
      case 'cancelled':
        return reply.code(200).send({ operation: row.id, cancelled: true, done: true });
      case 'too_late': {
        const reason = row.done
          ? 'the operation has already finished'
          : row.kind !== 'ingest'
            ? `a ${row.kind} operation cannot be cancelled`
            : 'the index stage has started';
        return reply.code(409).send({
          operation: row.id,
          cancelled: row.cancelled === 1,
          done: row.done === 1,
          error: { code: 'conflict', message: `cannot cancel: ${reason}` },
        });
      }
      default: {
        const never: never = result;
        throw new Error(`unexpected cancel result ${JSON.stringify(never)}`);
      }
    }
  });

  app.get('/operations/:id/deliveries', async (request) => {
    const row = find(request.account.id, request.params);
    return { deliveries: dl.deliveries.forOperation(row.id).map((d) => dl.deliveries.record(d)) };
  });
}
