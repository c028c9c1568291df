import type { PgMigration } from './pg-migration';

/**
 * Migration 15, the twin of SQLite's 015-embed-claims: which process embeds a keyframe for a model, and until when (ms); the models
 * whose download was asked for.
 */
export const pg015EmbedClaims: PgMigration = {
  version: 15,
  name: 'embed-claims',
  up: `
    CREATE TABLE segment_embed_claims (
      model TEXT NOT NULL,
      segment_id BIGINT NOT NULL,
      claimed_by TEXT NOT NULL,
      claim_until BIGINT NOT NULL,
      PRIMARY KEY (model, segment_id)
    );
    CREATE TABLE semantic_model_requests (
      model TEXT NOT NULL,
      revision TEXT NOT NULL,
      dtype TEXT NOT NULL,
      requested_at BIGINT NOT NULL,
      PRIMARY KEY (model, revision, dtype)
    );
  `,
};
