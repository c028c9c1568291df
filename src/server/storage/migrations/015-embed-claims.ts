import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * The semantic model's keyframe embedding across processes (semantic/embed-claims.ts):
 * - `segment_embed_claims`: the process embedding a batch of keyframes names itself in `claimed_by` until
 *   `claim_until` (ms) for each segment, so two workers on one database never embed the same keyframe at once; a
 *   claim left by a process that died lapses at `claim_until`. No foreign key: a claim is deleted by its holder when
 *   its batch ends, and one left by a dead process is taken over or swept once lapsed, so a segment deleted meanwhile
 *   (re-indexed) never waits on a claim's lock.
 * - `semantic_model_requests`: a download of the model was asked for (POST /semantic/download on any process), so
 *   every process of a team server fetches it into its own cache: workers to embed keyframes, API replicas to embed
 *   query text.
 */
export const m015EmbedClaims: Migration = {
  version: 15,
  name: 'embed-claims',
  up: `
    CREATE TABLE segment_embed_claims (
      model TEXT NOT NULL,
      segment_id INTEGER NOT NULL,
      claimed_by TEXT NOT NULL,
      claim_until INTEGER NOT NULL,
      PRIMARY KEY (model, segment_id)
    ) STRICT;
    CREATE TABLE semantic_model_requests (
      model TEXT NOT NULL,
      revision TEXT NOT NULL,
      dtype TEXT NOT NULL,
      requested_at INTEGER NOT NULL,
      PRIMARY KEY (model, revision, dtype)
    ) STRICT;
  `,
};
