import type { PgMigration } from './pg-migration';

/**
 * SQLite 008-datalake-claims (003 here, after 002-segment-search): who works on a datalake operation or webhook
 * delivery, and until when (ms).
 */
export const pg003DatalakeClaims: PgMigration = {
  version: 3,
  name: 'datalake-claims',
  up: `
    ALTER TABLE dl_operations ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_operations ADD COLUMN claim_until BIGINT;
    ALTER TABLE dl_deliveries ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_deliveries ADD COLUMN claim_until BIGINT;
  `,
};
