import { request } from 'undici';
import { z } from 'zod';
import type { ServiceContext } from '../context';
import { backoff, type JobHandler } from '../jobs/job-queue';
import { outboundAgent } from '../security/agents';
import { signedHeaders } from '../security/webhook-signature';
import { Deliveries } from './deliveries';
import type { OperationRecord } from './operations';

export const WEBHOOK_JOB = 'dl-webhook';
const payloadSchema = z.object({ deliveryId: z.string() });

/** The signed body: Standard Webhooks' {type, timestamp, data} convention, data being the final operation record. */
export function webhookBody(record: OperationRecord): string {
  return JSON.stringify({ type: 'operation.completed', timestamp: new Date().toISOString(), data: record });
}

/** Records a delivery row and queues its first attempt. */
export async function enqueueWebhook(
  ctx: ServiceContext,
  accountId: number,
  url: string,
  record: OperationRecord,
): Promise<void> {
  const delivery = new Deliveries(ctx.db).create(record.operation, accountId, url, webhookBody(record));
  // The queue's own cap is a backstop: the handler marks the row dead itself at webhooks.maxAttempts.
  await ctx.jobs.enqueue(WEBHOOK_JOB, delivery.id, { deliveryId: delivery.id }, ctx.config.webhooks.maxAttempts + 1);
}

/** One attempt: sign (fresh timestamp), POST, record the outcome on the delivery row; backoff with jitter between attempts. */
export function webhookHandler(ctx: ServiceContext): JobHandler {
  const deliveries = new Deliveries(ctx.db);
  const { maxAttempts, baseDelayMs, timeoutMs } = ctx.config.webhooks;
  return async (job, signal) => {
    const { deliveryId } = payloadSchema.parse(JSON.parse(job.payload));
    const row = deliveries.byId(deliveryId);
    if (!row || row.status === 'success' || row.status === 'dead') return { type: 'finished' };
    const account = await ctx.accounts.byId(row.account_id);
    if (!account) return { type: 'failed', error: 'account gone' };
    const attempt = row.attempt + 1;
    let responseCode: number | null = null;
    let message: string;
    try {
      const res = await request(row.url, {
        method: 'POST',
        dispatcher: outboundAgent('webhook', ctx.config.network.allowPrivateTargets),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Reelsync-Datalake/1',
          ...signedHeaders(account.webhookSecret, row.id, row.payload),
        },
        body: row.payload,
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
      await res.body.dump();
      responseCode = res.statusCode;
      if (res.statusCode >= 200 && res.statusCode < 300) {
        deliveries.recordAttempt(row.id, {
          status: 'success',
          attempt,
          responseCode,
          message: `delivered: HTTP ${res.statusCode}`,
          nextAttemptAt: null,
        });
        return { type: 'finished' };
      }
      message = `target answered HTTP ${res.statusCode}`;
    } catch (err) {
      if (signal.aborted) throw err; // shutting down: the attempt is made again after the restart
      message = `request failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (attempt >= maxAttempts) {
      deliveries.recordAttempt(row.id, {
        status: 'dead',
        attempt,
        responseCode,
        message: `${message}; gave up after ${attempt} attempts`,
        nextAttemptAt: null,
      });
      return { type: 'failed', error: message };
    }
    const delayMs = backoff(baseDelayMs, attempt);
    deliveries.recordAttempt(row.id, {
      status: 'fail',
      attempt,
      responseCode,
      message: `${message}; retrying`,
      nextAttemptAt: Date.now() + delayMs,
    });
    return { type: 'retry', error: message, delayMs };
  };
}
