import type { PgMigration } from './pg-migration';

/** SQLite migration 8's twin: job leases (jobs/job-rows.ts). */
export const pg003JobLeases: PgMigration = {
  version: 3,
  name: 'job-leases',
  up: `
    ALTER TABLE jobs ADD COLUMN leased_by TEXT;
    ALTER TABLE jobs ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0
  `,
};
