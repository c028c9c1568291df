import type { PgMigration } from './pg-migration';

/** Migration 17, the twin of SQLite's 017-model-fetch-leases: the process fetching an asked-for model from its host, and its bytes. */
export const pg017ModelFetchLeases: PgMigration = {
  version: 17,
  name: 'model-fetch-leases',
  up: `
    ALTER TABLE semantic_model_requests ADD COLUMN fetching_by TEXT;
    ALTER TABLE semantic_model_requests ADD COLUMN fetching_until BIGINT;
    ALTER TABLE semantic_model_requests ADD COLUMN fetched_bytes BIGINT;
    ALTER TABLE semantic_model_requests ADD COLUMN total_bytes BIGINT;
  `,
};
