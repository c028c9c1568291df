import type { PgMigration } from './pg-migration';

/** The PostgreSQL-only table of this migration (no SQLite twin: FTS5 keeps its own posting lists), for pg-drift.test.ts. */
export const PG_ONLY_WORD_TABLES = /^segment_search_words$/;

/** A set of segment_search rows (`n`) as their postings: one row per lexeme per segment, what a ranking reads. */
export const POSTINGS = (rows: string): string => `
  SELECT n.account_id, w.lexeme, n.segment_id, s.video_id, n.tokens,
    SUM(w.weight * w.n) AS weighted, COALESCE(SUM(w.n) FILTER (WHERE w.col = 0), 0) AS in_caption,
    COALESCE(SUM(w.n) FILTER (WHERE w.col = 1), 0) AS in_transcript
  FROM ${rows} n JOIN segments s ON s.id = n.segment_id,
    LATERAL (
      SELECT 0 AS col, 3.0 AS weight, u.lexeme, COALESCE(cardinality(u.positions), 0) AS n FROM unnest(n.caption_tsv) u
      UNION ALL
      SELECT 1, 2.0, u.lexeme, COALESCE(cardinality(u.positions), 0) FROM unnest(n.transcript_tsv) u
      UNION ALL
      SELECT 2, 3.0, u.lexeme, COALESCE(cardinality(u.positions), 0) FROM unnest(n.ocr_tsv) u
      UNION ALL
      SELECT 3, 2.5, u.lexeme, COALESCE(cardinality(u.positions), 0) FROM unnest(n.labels_tsv) u
      UNION ALL
      SELECT 4, 1.0, u.lexeme, COALESCE(cardinality(u.positions), 0) FROM unnest(n.names_tsv) u
    ) w
  GROUP BY n.account_id, w.lexeme, n.segment_id, s.video_id, n.tokens
  ORDER BY n.account_id, w.lexeme, n.segment_id`;

export const POSTING_COLUMNS = 'account_id, lexeme, segment_id, video_id, tokens, weighted, in_caption, in_transcript';

/**
 * Per-word posting lists of segment_search (migration 8), the twin of FTS5's own: for each account and lexeme, the
 * segments holding it, with what bm25 needs of one word in one row (search/pg/pg-word-rank.ts): the row's video (for
 * the filters), its word count, the word's instances weighted by their columns' bm25 weights (bm25.ts COLUMN_WEIGHTS,
 * every column: an all-columns search), and its instances in the caption and in the transcript (a caption or
 * transcript search). The key holds everything (INCLUDE), so a ranking over words in 2,400-9,000 rows reads their
 * postings in key order from the index instead of every candidate's tsvector from the heap.
 * - Counts are those of the column tsvectors (at most 256 positions per lexeme, as the ranking read before).
 * - Kept in step by statement triggers on segment_search, in the transaction that writes it (the indexer, re-indexing,
 *   the SQLite -> PostgreSQL migration), after migration 16's counts (trigger names sort after theirs, so the account's
 *   totals row is locked first and two writers of one account queue as before). A deleted row's postings are found
 *   through its document's lexemes (the key), so no second index is needed; deleting segments or an account deletes
 *   their segment_search rows and so their postings.
 * - Rows are written sorted by key: one statement's postings of a word share heap pages.
 */
export const pg019SegmentSearchWords: PgMigration = {
  version: 19,
  name: 'segment-search-words',
  up: `
    CREATE TABLE segment_search_words (
      account_id BIGINT NOT NULL,
      lexeme TEXT NOT NULL,
      segment_id BIGINT NOT NULL,
      video_id BIGINT NOT NULL,
      tokens BIGINT NOT NULL,
      weighted DOUBLE PRECISION NOT NULL,
      in_caption INT NOT NULL,
      in_transcript INT NOT NULL,
      PRIMARY KEY (account_id, lexeme, segment_id) INCLUDE (video_id, tokens, weighted, in_caption, in_transcript)
    );

    CREATE FUNCTION segment_search_words_unposted() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      DELETE FROM segment_search_words p
        USING (SELECT o.account_id, o.segment_id, l.lexeme FROM old_rows o, unnest(tsvector_to_array(o.document)) l(lexeme)) d
        WHERE p.account_id = d.account_id AND p.lexeme = d.lexeme AND p.segment_id = d.segment_id;
      IF TG_OP = 'UPDATE' THEN
        INSERT INTO segment_search_words (${POSTING_COLUMNS}) ${POSTINGS('new_rows')};
      END IF;
      RETURN NULL;
    END
    $fn$;
    CREATE FUNCTION segment_search_words_posted() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO segment_search_words (${POSTING_COLUMNS}) ${POSTINGS('new_rows')};
      RETURN NULL;
    END
    $fn$;

    CREATE TRIGGER segment_search_words_inserted AFTER INSERT ON segment_search
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_search_words_posted();
    CREATE TRIGGER segment_search_words_updated AFTER UPDATE ON segment_search
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION segment_search_words_unposted();
    CREATE TRIGGER segment_search_words_deleted AFTER DELETE ON segment_search
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_search_words_unposted();

    INSERT INTO segment_search_words (${POSTING_COLUMNS}) ${POSTINGS('segment_search')};
    ANALYZE segment_search_words;
  `,
};
