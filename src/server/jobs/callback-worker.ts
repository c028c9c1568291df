import { request } from 'undici';
import { z } from 'zod';
import type { ServiceContext } from '../context';
import { outboundAgent } from '../security/agents';
import { signedHeaders } from '../security/webhook-signature';
import type { Sql } from '../storage/sql';
import type { JobHandler } from './job-queue';

const payloadSchema = z.object({
  url: z.string().url(),
  accountId: z.number().int(),
  body: z.record(z.string(), z.unknown()),
});

/**
 * Enqueues the upload callback: POST {"videoNo", "status"} to the URL given at upload, signed for the video's account.
 * `on`: the transaction that writes the outcome the callback reports, so the callback is queued exactly when it commits.
 */
export async function enqueueCallback(
  ctx: ServiceContext,
  accountId: number,
  url: string,
  videoNo: string,
  status: 'PARSE' | 'FAIL',
  on?: Sql,
): Promise<void> {
  await ctx.jobs.enqueue(
    'callback',
    videoNo,
    { url, accountId, body: { videoNo, status } },
    ctx.config.callbacks.maxAttempts,
    on,
  );
}

/**
 * Delivers one callback, signed the Standard Webhooks way with the account's secret (the datalake webhooks' secret),
 * so a receiver can tell it from a forgery; any non-2xx answer or network error is retried with backoff, never
 * blocking indexing.
 */
export function callbackHandler(ctx: ServiceContext): JobHandler {
  return async (job, signal) => {
    const payload = payloadSchema.safeParse(JSON.parse(job.payload));
    if (!payload.success) return { type: 'failed', error: 'callback payload unreadable' };
    const account = await ctx.accounts.byId(payload.data.accountId);
    if (!account) return { type: 'failed', error: 'account gone' };
    const body = JSON.stringify(payload.data.body);
    try {
      const res = await request(payload.data.url, {
        method: 'POST',
        dispatcher: outboundAgent('callback', ctx.config.network.allowPrivateTargets),
        // The job id is the message id: the same on every attempt, so a receiver can drop repeats.
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Reelsync-Service/1',
          ...signedHeaders(account.webhookSecret, `cb_${job.id}`, body),
        },
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(ctx.config.callbacks.timeoutMs)]),
      });
      await res.body.dump();
      if (res.statusCode >= 200 && res.statusCode < 300) return { type: 'finished' };
      return { type: 'retry', error: `callback answered HTTP ${res.statusCode}` };
    } catch (err) {
      return { type: 'retry', error: `callback failed: ${err instanceof Error ? err.message : String(err)}` };
    }
  };
}
