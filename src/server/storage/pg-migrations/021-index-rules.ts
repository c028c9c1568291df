import type { PgMigration } from './pg-migration';

/** Migration 21, the twin of SQLite's 021-index-rules: each video's indexer rules version, and one re-index job per video and version. */
export const pg021IndexRules: PgMigration = {
  version: 21,
  name: 'index-rules',
  up: `
    ALTER TABLE videos ADD COLUMN index_rules TEXT;
    CREATE UNIQUE INDEX jobs_reindex_once ON jobs (ref) WHERE kind = 'reindex';
  `,
};
