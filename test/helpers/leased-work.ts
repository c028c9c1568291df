import { setTimeout as sleep } from 'node:timers/promises';
import { LeaseLost, type JobHandler } from '../../src/server/jobs/job-queue';
import type { Sql } from '../../src/server/storage/sql';

/** The table a leased job writes its one effect to, beside `jobs` (tests only). */
export const EFFECTS_DDL = 'CREATE TABLE IF NOT EXISTS job_effects (job_id INTEGER NOT NULL, worker TEXT NOT NULL)';

export type LeasedWorkEvent = 'started' | 'committed' | 'lease-lost' | 'aborted';

/**
 * A job handler with one effect, committed under the job's lease: works `workMs` (stopped by the job's signal), then
 * records (job, worker) in job_effects in a transaction that holds the lease. A worker that lost the job records
 * nothing. Tells `report` what happens.
 */
export function leasedWork(
  sql: Sql,
  worker: string,
  workMs: number,
  report: (event: LeasedWorkEvent, jobId: number) => void,
): JobHandler {
  return async (job, signal, lease) => {
    report('started', job.id);
    try {
      await sleep(workMs, undefined, { signal });
    } catch (err) {
      report('aborted', job.id);
      throw err;
    }
    try {
      await sql.transaction(async (tx) => {
        await lease.hold(tx);
        await tx.run('INSERT INTO job_effects (job_id, worker) VALUES (?, ?)', job.id, worker);
      });
    } catch (err) {
      if (err instanceof LeaseLost) report('lease-lost', job.id);
      throw err;
    }
    report('committed', job.id);
    return { type: 'finished' };
  };
}
