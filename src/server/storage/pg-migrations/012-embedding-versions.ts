import type { PgMigration } from './pg-migration';

/**
 * Migration 12, the twin of SQLite's 012-embedding-versions: a version per model of the keyframe embeddings, bumped by triggers in the
 * transaction of every change. Statement-level triggers with transition tables bump once per statement that changed
 * rows (a cascade from a deleted segment is one such statement), not once per row; models in order, so two
 * transactions bumping several take the rows' locks in the same order.
 */
export const pg012EmbeddingVersions: PgMigration = {
  version: 12,
  name: 'embedding-versions',
  up: `
    CREATE TABLE segment_embedding_versions (
      model TEXT PRIMARY KEY,
      version BIGINT NOT NULL
    );
    CREATE FUNCTION segment_embeddings_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO segment_embedding_versions (model, version)
        SELECT DISTINCT model, 1 FROM changed ORDER BY model
        ON CONFLICT (model) DO UPDATE SET version = segment_embedding_versions.version + 1;
      RETURN NULL;
    END $$;
    CREATE TRIGGER segment_embeddings_inserted AFTER INSERT ON segment_embeddings
      REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION segment_embeddings_bump();
    CREATE TRIGGER segment_embeddings_updated AFTER UPDATE ON segment_embeddings
      REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION segment_embeddings_bump();
    CREATE TRIGGER segment_embeddings_deleted AFTER DELETE ON segment_embeddings
      REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION segment_embeddings_bump();
    CREATE FUNCTION videos_parse_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO segment_embedding_versions (model, version)
        SELECT DISTINCT e.model, 1 FROM segments s JOIN segment_embeddings e ON e.segment_id = s.id
        WHERE s.video_id = NEW.id ORDER BY e.model
        ON CONFLICT (model) DO UPDATE SET version = segment_embedding_versions.version + 1;
      RETURN NULL;
    END $$;
    CREATE TRIGGER videos_parse_changed AFTER UPDATE OF status ON videos FOR EACH ROW
      WHEN ((OLD.status = 'PARSE') IS DISTINCT FROM (NEW.status = 'PARSE'))
      EXECUTE FUNCTION videos_parse_bump();
  `,
};
