import type { PgMigration } from './pg-migration';

/**
 * SQLite 009-datalake-claims (004 here): who works on a datalake operation or webhook
 * delivery, and until when (ms).
 */
export const pg004DatalakeClaims: PgMigration = {
  version: 4,
  name: 'datalake-claims',
  up: `
    ALTER TABLE dl_operations ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_operations ADD COLUMN claim_until BIGINT;
    ALTER TABLE dl_deliveries ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_deliveries ADD COLUMN claim_until BIGINT;
  `,
};
