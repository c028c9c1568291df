import type { FastifyInstance } from 'fastify';
import type { Datalake } from '../../datalake/datalake';
import type { Balance } from './answers';
import { answer, datalakeRoute } from './route';

export function registerUsage(app: FastifyInstance, dl: Datalake): void {
  /** The live balance: micro-USD as an integer, and the same in USD. Free. */
  datalakeRoute(app, {
    method: 'GET',
    url: '/usage/balance',
    response: answer<Balance>(),
    handler: async ({ account }) => {
      const micro = await dl.ctx.billing.balance(account.id);
      return { balance_micro_usd: micro, balance_usd: micro / 1_000_000, currency: 'USD' as const };
    },
  });
}
