import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Who fetches an asked-for model from its host (semantic/team-model-fetch.ts): on a team server one process holds the
 * fetch lease (`fetching_by` until `fetching_until`, ms) and reports its bytes (`fetched_bytes` of `total_bytes`) as it
 * goes; the others wait and copy the model from the team's blob store once it is there. A lease left by a process
 * that died lapses at `fetching_until`, and another process takes the fetch over.
 */
export const m017ModelFetchLeases: Migration = {
  version: 17,
  name: 'model-fetch-leases',
  up: `
    ALTER TABLE semantic_model_requests ADD COLUMN fetching_by TEXT;
    ALTER TABLE semantic_model_requests ADD COLUMN fetching_until INTEGER;
    ALTER TABLE semantic_model_requests ADD COLUMN fetched_bytes INTEGER;
    ALTER TABLE semantic_model_requests ADD COLUMN total_bytes INTEGER;
  `,
};
