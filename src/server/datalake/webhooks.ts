import { request } from 'undici';
import { z } from 'zod';
import type { JobOutcome } from '../../shared/job-outcome';
import type { ServiceContext } from '../context';
import { backoff, type JobHandler } from '../jobs/job-queue';
import { outboundAgent } from '../security/agents';
import { signedHeaders } from '../security/webhook-signature';
import { Deliveries, type AttemptOutcome } from './deliveries';
import type { OperationRecord } from './operations';

export const WEBHOOK_JOB = 'dl-webhook';
const payloadSchema = z.object({ deliveryId: z.string() });
/** A claimed attempt outlives its request's timeout by this much before another process may make it again. */
const CLAIM_MARGIN_MS = 10_000;

/** What a delivery attempt needs of the service. */
export type WebhookContext = Pick<ServiceContext, 'sql' | 'accounts'> & {
  config: Pick<ServiceContext['config'], 'webhooks' | 'network'>;
};

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
  const delivery = await new Deliveries(ctx.sql).create(record.operation, accountId, url, webhookBody(record));
  // The queue's own cap is a backstop: the handler marks the row dead itself at webhooks.maxAttempts.
  await ctx.jobs.enqueue(WEBHOOK_JOB, delivery.id, { deliveryId: delivery.id }, ctx.config.webhooks.maxAttempts + 1);
}

/**
 * One attempt: claim the delivery row, sign (fresh timestamp), POST, record the outcome on the row; backoff with
 * jitter between attempts. Only the process holding the claim sends and records, so with several worker processes
 * an attempt is never made twice at once.
 */
export function webhookHandler(ctx: WebhookContext): JobHandler {
  const deliveries = new Deliveries(ctx.sql);
  const { maxAttempts, baseDelayMs, timeoutMs } = ctx.config.webhooks;
  return async (job, signal) => {
    const { deliveryId } = payloadSchema.parse(JSON.parse(job.payload));
    const row = await deliveries.claimAttempt(deliveryId, timeoutMs + CLAIM_MARGIN_MS);
    if (!row) {
      const current = await deliveries.byId(deliveryId);
      if (!current || current.status === 'success' || current.status === 'dead') return { type: 'finished' };
      const heldFor = Math.max(0, (current.claim_until ?? 0) - Date.now());
      return { type: 'retry', error: 'another worker is making this attempt', delayMs: heldFor + 1_000 };
    }
    // A lost claim means another process took the row over: its attempt is the one that counts.
    const settle = async (outcome: AttemptOutcome, then: JobOutcome): Promise<JobOutcome> =>
      (await deliveries.recordAttempt(row.id, outcome)) ? then : { type: 'finished' };
    const account = await ctx.accounts.byId(row.account_id);
    if (!account) {
      await deliveries.releaseClaim(row.id);
      return { type: 'failed', error: 'account gone' };
    }
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
      message = `target answered HTTP ${res.statusCode}`;
    } catch (err) {
      if (signal.aborted) {
        await deliveries.releaseClaim(row.id);
        throw err; // shutting down: the attempt is made again after the restart
      }
      message = `request failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (responseCode !== null && responseCode >= 200 && responseCode < 300) {
      return settle(
        { status: 'success', attempt, responseCode, message: `delivered: HTTP ${responseCode}`, nextAttemptAt: null },
        { type: 'finished' },
      );
    }
    if (attempt >= maxAttempts) {
      return settle(
        {
          status: 'dead',
          attempt,
          responseCode,
          message: `${message}; gave up after ${attempt} attempts`,
          nextAttemptAt: null,
        },
        { type: 'failed', error: message },
      );
    }
    const delayMs = backoff(baseDelayMs, attempt);
    return settle(
      { status: 'fail', attempt, responseCode, message: `${message}; retrying`, nextAttemptAt: Date.now() + delayMs },
      { type: 'retry', error: message, delayMs },
    );
  };
}
