import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Claims on datalake operations and webhook deliveries: the worker working on a row names itself in `claimed_by`
 * until `claim_until` (ms), so two worker processes on one database never both run an operation's stage or send the
 * same delivery attempt; a claim left by a worker that died lapses at `claim_until`.
 */
export const m011DatalakeClaims: Migration = {
  version: 11,
  name: 'datalake-claims',
  up: `
    ALTER TABLE dl_operations ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_operations ADD COLUMN claim_until INTEGER;
    ALTER TABLE dl_deliveries ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_deliveries ADD COLUMN claim_until INTEGER;
  `,
};
