import type { PgMigration } from './pg-migration';

/**
 * Migration 11, the twin of SQLite's 011-datalake-claims: who works on a datalake operation or webhook
 * delivery, and until when (ms).
 */
export const pg011DatalakeClaims: PgMigration = {
  version: 11,
  name: 'datalake-claims',
  up: `
    ALTER TABLE dl_operations ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_operations ADD COLUMN claim_until BIGINT;
    ALTER TABLE dl_deliveries ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_deliveries ADD COLUMN claim_until BIGINT;
  `,
};
