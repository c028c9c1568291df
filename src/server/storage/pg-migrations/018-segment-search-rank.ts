import type { PgMigration } from './pg-migration';

/** The PostgreSQL-only table of this migration (no SQLite twin: FTS5 ranks from its own index), for pg-drift.test.ts. */
export const PG_ONLY_RANK_TABLES = /^segment_search_rank$/;

/**
 * The narrow table keyword search matches and ranks on (search/pg/pg-segment-search.ts): per segment_search row only
 * what a ranking reads, ~1/3 of the wide row (which also holds the body, names and the five column tsvectors), with the
 * segment's video so the filters join videos directly, not through segments.
 * - `terms` is segment_search's `document` (the same words and positions; weights A caption, B transcript, C the
 *   rest, so a caption or transcript search restricts by weight as before, and a search marks its own words D) with
 *   the lexeme `|` (which no tokenized word can be) between columns: a phrase never runs from one column into the
 *   next, and the `|` positions tell which column a position is in, so one setweight and one ts_filter per row give
 *   bm25 every column's positions of the query's words.
 * - Its GIN index takes new rows at once (fastupdate off): with GIN's pending list, every search of the account scans
 *   the rows written since the last (auto)vacuum one by one (a 495-word search of a 200-segment account right after
 *   indexing 100,000 segments: 72 ms, 18 ms once the list was merged).
 * - Kept in step by triggers on segment_search, in the transaction that writes it, whatever writes it (the indexer,
 *   the SQLite -> PostgreSQL migration); deleting a segment_search row deletes its row here (foreign key).
 */
export const pg018SegmentSearchRank: PgMigration = {
  version: 18,
  name: 'segment-search-rank',
  up: `
    CREATE FUNCTION segment_search_rank_terms(caption TSVECTOR, transcript TSVECTOR, ocr TSVECTOR, labels TSVECTOR,
      names TSVECTOR) RETURNS TSVECTOR LANGUAGE sql IMMUTABLE AS $fn$
      SELECT setweight(caption, 'A') || '|:1'::tsvector || setweight(transcript, 'B') || '|:1'::tsvector ||
        setweight(ocr, 'C') || '|:1'::tsvector || setweight(labels, 'C') || '|:1'::tsvector || setweight(names, 'C')
    $fn$;

    CREATE TABLE segment_search_rank (
      segment_id BIGINT PRIMARY KEY REFERENCES segment_search(segment_id) ON DELETE CASCADE,
      account_id BIGINT NOT NULL,
      video_id BIGINT NOT NULL,
      tokens BIGINT NOT NULL,
      terms TSVECTOR NOT NULL
    );
    CREATE INDEX segment_search_rank_match ON segment_search_rank USING GIN (account_id, terms) WITH (fastupdate = off);

    CREATE FUNCTION segment_search_ranked() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO segment_search_rank AS r (segment_id, account_id, video_id, tokens, terms)
        SELECT n.segment_id, n.account_id, s.video_id, n.tokens,
          segment_search_rank_terms(n.caption_tsv, n.transcript_tsv, n.ocr_tsv, n.labels_tsv, n.names_tsv)
        FROM new_rows n JOIN segments s ON s.id = n.segment_id
        ORDER BY n.segment_id
      ON CONFLICT (segment_id) DO UPDATE SET account_id = excluded.account_id, video_id = excluded.video_id,
        tokens = excluded.tokens, terms = excluded.terms;
      RETURN NULL;
    END
    $fn$;

    CREATE TRIGGER segment_search_rank_inserted AFTER INSERT ON segment_search
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_search_ranked();
    CREATE TRIGGER segment_search_rank_updated AFTER UPDATE ON segment_search
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_search_ranked();

    INSERT INTO segment_search_rank (segment_id, account_id, video_id, tokens, terms)
      SELECT f.segment_id, f.account_id, s.video_id, f.tokens,
        segment_search_rank_terms(f.caption_tsv, f.transcript_tsv, f.ocr_tsv, f.labels_tsv, f.names_tsv)
      FROM segment_search f JOIN segments s ON s.id = f.segment_id;
    ANALYZE segment_search_rank;
  `,
};
