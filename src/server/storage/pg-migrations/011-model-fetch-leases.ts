import type { PgMigration } from './pg-migration';

/** SQLite 015-model-fetch-leases (011 here): the process fetching an asked-for model from its host, and its bytes. */
export const pg011ModelFetchLeases: PgMigration = {
  version: 11,
  name: 'model-fetch-leases',
  up: `
    ALTER TABLE semantic_model_requests ADD COLUMN fetching_by TEXT;
    ALTER TABLE semantic_model_requests ADD COLUMN fetching_until BIGINT;
    ALTER TABLE semantic_model_requests ADD COLUMN fetched_bytes BIGINT;
    ALTER TABLE semantic_model_requests ADD COLUMN total_bytes BIGINT;
  `,
};
