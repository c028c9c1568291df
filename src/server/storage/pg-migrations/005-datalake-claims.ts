import type { PgMigration } from './pg-migration';

/**
 * SQLite 010-datalake-claims (005 here): who works on a datalake operation or webhook
 * delivery, and until when (ms).
 */
export const pg005DatalakeClaims: PgMigration = {
  version: 5,
  name: 'datalake-claims',
  up: `
    ALTER TABLE dl_operations ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_operations ADD COLUMN claim_until BIGINT;
    ALTER TABLE dl_deliveries ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_deliveries ADD COLUMN claim_until BIGINT;
  `,
};
