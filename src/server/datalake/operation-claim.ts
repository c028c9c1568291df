import { z } from 'zod';
import type { JobHandler } from '../jobs/job-queue';
import type { Datalake } from './datalake';

/** How long an operation's claim lasts unless renewed; a worker process that dies frees its operations after this. */
export const OPERATION_LEASE_MS = 30_000;
const payloadSchema = z.object({ operationId: z.string() });

/**
 * Wraps the handler of an operation's stage job (ingest, derive, purge): it runs only while this process holds the
 * operation's claim, renewed every third of the lease; a stage whose claim is lost (it lapsed and another process took
 * the operation, or another process ended it: a cancel or delete on an api replica) sees its signal aborted. An operation another live process holds is tried again once that claim
 * would lapse.
 */
export function claimingOperation(
  dl: Pick<Datalake, 'operations'> & { ctx: Pick<Datalake['ctx'], 'log'> },
  handler: JobHandler,
  leaseMs = OPERATION_LEASE_MS,
): JobHandler {
  const { operations } = dl;
  return async (job, jobSignal, lease) => {
    const { operationId } = payloadSchema.parse(JSON.parse(job.payload));
    if (!(await operations.claim(operationId, leaseMs))) {
      const row = await operations.byId(operationId);
      if (!row || row.done) return { type: 'finished' };
      const heldFor = Math.max(0, (row.claim_until ?? 0) - Date.now());
      return { type: 'retry', error: 'another worker holds this operation', delayMs: heldFor + 1_000 };
    }
    const lost = new AbortController();
    const renew = setInterval(() => {
      operations.renewClaim(operationId, leaseMs).then(
        (held) => {
          if (!held) lost.abort(new Error('the operation ended or was claimed by another worker'));
        },
        (err: unknown) => dl.ctx.log.warn({ operation: operationId, err }, 'cannot renew the operation claim'),
      );
    }, leaseMs / 3);
    try {
      return await handler(job, AbortSignal.any([jobSignal, lost.signal]), lease);
    } finally {
      clearInterval(renew);
      await operations.releaseClaim(operationId);
    }
  };
}
