import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Job leases (jobs/job-rows.ts): a running job is held by the worker process named in `leased_by` until `lease_until`
 * (ms), which that worker keeps pushing forward while the job runs. A running job whose lease has passed is claimable
 * again by any process: its worker died or stalled.
 */
export const m009JobLeases: Migration = {
  version: 9,
  name: 'job-leases',
  up: `
    ALTER TABLE jobs ADD COLUMN leased_by TEXT;
    ALTER TABLE jobs ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
  `,
};
