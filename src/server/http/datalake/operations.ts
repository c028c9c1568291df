import type { FastifyInstance } from 'fastify';
import { unreachable } from '../../../shared/errors';
import type { Datalake } from '../../datalake/datalake';
import { missing } from '../../datalake/errors';
import type { CancelAnswer, DeliveryList, OperationRecord } from './answers';
import { actionTarget, idParam, targetParam } from './parse';
import { answer, datalakeRoute } from './route';

export function registerOperations(app: FastifyInstance, dl: Datalake): void {
  const find = async (accountId: number, id: string) => {
    const row = await dl.operations.get(accountId, id);
    if (!row) throw missing('operation');
    return row;
  };

  datalakeRoute(app, {
    method: 'GET',
    url: '/operations/:id',
    params: idParam,
    response: answer<OperationRecord>(),
    handler: async ({ account, params }) => dl.operations.record(await find(account.id, params.id)),
  });

  /** 200 {operation, cancelled: true, done: true} before the index stage; 409 with the same fields and an error after. */
  datalakeRoute(app, {
    method: 'POST',
    url: '/operations/:target',
    params: targetParam,
    response: answer<CancelAnswer>(),
    handler: async ({ account, params, reply }) => {
      const row = await find(account.id, actionTarget(params, 'cancel'));
      const result = await dl.cancel(row);
      switch (result.kind) {
        case 'cancelled':
          return { operation: row.id, cancelled: true, done: true };
        case 'too_late': {
          const reason = row.done
            ? 'the operation has already finished'
            : row.kind !== 'ingest'
              ? `a ${row.kind} operation cannot be cancelled`
              : 'the index stage has started';
          void reply.code(409);
          return {
            operation: row.id,
            cancelled: row.cancelled === 1,
            done: row.done === 1,
            error: { code: 'conflict' as const, message: `cannot cancel: ${reason}` },
          };
        }
        default:
          throw unreachable(result);
      }
    },
  });

  datalakeRoute(app, {
    method: 'GET',
    url: '/operations/:id/deliveries',
    params: idParam,
    response: answer<DeliveryList>(),
    handler: async ({ account, params }) => {
      const row = await find(account.id, params.id);
      return { deliveries: (await dl.deliveries.forOperation(row.id)).map((d) => dl.deliveries.record(d)) };
    },
  });
}
