import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * `index_rules`: the indexer's rules version (indexer/index-rules.ts) a video was indexed under; NULL for videos
 * indexed before it was recorded (outdated). `jobs_reindex_once`: at most one re-index job per video and rules
 * version (its ref), in any state, so several worker processes and restarts never queue the same re-index twice
 * and a re-index that failed is not tried again under the same rules.
 */
export const m021IndexRules: Migration = {
  version: 21,
  name: 'index-rules',
  up: `
    ALTER TABLE videos ADD COLUMN index_rules TEXT;
    CREATE UNIQUE INDEX jobs_reindex_once ON jobs (ref) WHERE kind = 'reindex';
  `,
};
