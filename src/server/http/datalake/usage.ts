import type { FastifyInstance } from 'fastify';
import type { Datalake } from '../../datalake/datalake';

export function registerUsage(app: FastifyInstance, dl: Datalake): void {
  /** The live balance: micro-USD as an integer, and the same in USD. Free. */
  app.get('/usage/balance', async (request) => {
    const micro = dl.ctx.billing.balance(request.account.id);
    return { balance_micro_usd: micro, balance_usd: micro / 1_000_000, currency: 'USD' };
  });
}
