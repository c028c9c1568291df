import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * A version per model of the keyframe embeddings a search may scan (semantic/vector-cache.ts), bumped by triggers in
 * the transaction of every change to them: a vector written, replaced or deleted (deletes come as cascades of a
 * segment or video deleted by the indexer or the library, which is why triggers and not the stores bump it), and a
 * video with vectors entering or leaving PARSE (the scan reads PARSE videos only). A search process reads one row to
 * know whether the vectors it keeps are still the database's, on both engines (PostgreSQL: pg-migrations/006).
 */
export const m012EmbeddingVersions: Migration = {
  version: 12,
  name: 'embedding-versions',
  up: `
    CREATE TABLE segment_embedding_versions (
      model TEXT PRIMARY KEY,
      version INTEGER NOT NULL
    ) STRICT;
    CREATE TRIGGER segment_embeddings_inserted AFTER INSERT ON segment_embeddings BEGIN
      INSERT INTO segment_embedding_versions (model, version) VALUES (NEW.model, 1)
        ON CONFLICT (model) DO UPDATE SET version = version + 1;
    END;
    CREATE TRIGGER segment_embeddings_updated AFTER UPDATE ON segment_embeddings BEGIN
      INSERT INTO segment_embedding_versions (model, version) VALUES (NEW.model, 1)
        ON CONFLICT (model) DO UPDATE SET version = version + 1;
    END;
    CREATE TRIGGER segment_embeddings_deleted AFTER DELETE ON segment_embeddings BEGIN
      INSERT INTO segment_embedding_versions (model, version) VALUES (OLD.model, 1)
        ON CONFLICT (model) DO UPDATE SET version = version + 1;
    END;
    CREATE TRIGGER videos_parse_changed AFTER UPDATE OF status ON videos
      WHEN (OLD.status = 'PARSE') <> (NEW.status = 'PARSE')
    BEGIN
      INSERT INTO segment_embedding_versions (model, version)
        SELECT DISTINCT e.model, 1 FROM segments s JOIN segment_embeddings e ON e.segment_id = s.id
        WHERE s.video_id = NEW.id
        ON CONFLICT (model) DO UPDATE SET version = version + 1;
    END;
  `,
};
