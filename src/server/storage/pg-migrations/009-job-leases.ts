import type { PgMigration } from './pg-migration';

/** The twin of SQLite's 009-job-leases: job leases (jobs/job-rows.ts). */
export const pg009JobLeases: PgMigration = {
  version: 9,
  name: 'job-leases',
  up: `
    ALTER TABLE jobs ADD COLUMN leased_by TEXT;
    ALTER TABLE jobs ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0
  `,
};
