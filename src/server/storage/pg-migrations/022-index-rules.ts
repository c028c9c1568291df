import type { PgMigration } from './pg-migration';

/** Migration 22, the twin of SQLite's 022-index-rules: each video's indexer rules version, and one re-index job per video and version. */
export const pg022IndexRules: PgMigration = {
  version: 22,
  name: 'index-rules',
  up: `
    ALTER TABLE videos ADD COLUMN index_rules TEXT;
    CREATE UNIQUE INDEX jobs_reindex_once ON jobs (ref) WHERE kind = 'reindex';
  `,
};
