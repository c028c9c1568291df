import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Keyframe embeddings of the semantic model slot (src/server/semantic): one float32 vector per segment and model,
 * stored as a BLOB. A flat table scanned per search rather than sqlite-vec: sqlite-vec's vec0 also answers a query
 * by scanning every vector (no approximate index yet), but needs a native binary per platform in the packaged app;
 * this table needs nothing, and its scan is a dot product per row of the account's segments (docs/architecture.md).
 * Rows go with their segment (re-indexing deletes segments: the new ones are embedded again).
 */
export const m007SegmentEmbeddings: Migration = {
  version: 7,
  name: 'segment-embeddings',
  up: `
    CREATE TABLE segment_embeddings (
      segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
      model TEXT NOT NULL,
      vector BLOB NOT NULL,
      PRIMARY KEY (model, segment_id)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX segment_embeddings_segment ON segment_embeddings (segment_id);
  `,
};
