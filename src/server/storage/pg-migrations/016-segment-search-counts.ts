import type { PgMigration } from './pg-migration';

/** The PostgreSQL-only tables of this migration (no SQLite twin: FTS5 keeps its own counts), for pg-drift.test.ts. */
export const PG_ONLY_COUNT_TABLES = /^segment_search_(totals|terms)$/;

/**
 * Per-account counts of segment_search (migration 8), kept by triggers in the transaction that changes its rows, as
 * each account's FTS5 table keeps its own (search/pg/pg-phrase-hits.ts reads them):
 * - segment_search_totals: the account's rows and words (bm25's N and average document length);
 * - segment_search_terms: for each lexeme, the account's rows holding it in any column, in the caption, and in the
 *   transcript (a word's document frequency, bm25's idf, for an all-columns, caption or transcript search).
 * Counting a word's rows through the GIN index visits every one of them in the heap (~6 ms for a word in 2,400 of
 * 100,000 rows: a 32-word query, counting each word and its WordNet expansions, spent ~600 ms there). Here all of a
 * query's words are one index lookup, whatever their rows. Existing rows are counted by the migration.
 *
 * The account's totals row is written first in each statement: its row lock, held to commit, orders every writer of
 * the account's counts, so two indexing transactions of one account never deadlock on the term rows (they queue for
 * each other from their first segment_search write, as SQLite's writers always do). No foreign keys: deleting an
 * account deletes its segment_search rows, whose trigger then writes the account's counts down to zero.
 */
export const pg016SegmentSearchCounts: PgMigration = {
  version: 16,
  name: 'segment-search-counts',
  up: `
    CREATE TABLE segment_search_totals (
      account_id BIGINT PRIMARY KEY,
      segments BIGINT NOT NULL,
      tokens BIGINT NOT NULL
    );
    CREATE TABLE segment_search_terms (
      account_id BIGINT NOT NULL,
      lexeme TEXT NOT NULL,
      in_any BIGINT NOT NULL,
      in_caption BIGINT NOT NULL,
      in_transcript BIGINT NOT NULL,
      PRIMARY KEY (account_id, lexeme)
    );

    CREATE TYPE segment_search_change AS (
      account_id BIGINT, tokens BIGINT, document TSVECTOR, caption_tsv TSVECTOR, transcript_tsv TSVECTOR, sign INT
    );

    CREATE FUNCTION segment_search_count(changes segment_search_change[]) RETURNS void LANGUAGE sql AS $fn$
      INSERT INTO segment_search_totals AS t (account_id, segments, tokens)
        SELECT c.account_id, SUM(c.sign), SUM(c.sign * c.tokens) FROM unnest(changes) c
        GROUP BY c.account_id ORDER BY c.account_id
      ON CONFLICT (account_id) DO UPDATE SET segments = t.segments + excluded.segments,
        tokens = t.tokens + excluded.tokens;
      INSERT INTO segment_search_terms AS t (account_id, lexeme, in_any, in_caption, in_transcript)
        SELECT d.account_id, d.lexeme, SUM(d.in_any), SUM(d.in_caption), SUM(d.in_transcript) FROM (
          SELECT c.account_id, l.lexeme, c.sign AS in_any, 0 AS in_caption, 0 AS in_transcript
            FROM unnest(changes) c, unnest(tsvector_to_array(c.document)) AS l(lexeme)
          UNION ALL
          SELECT c.account_id, l.lexeme, 0, c.sign, 0
            FROM unnest(changes) c, unnest(tsvector_to_array(c.caption_tsv)) AS l(lexeme)
          UNION ALL
          SELECT c.account_id, l.lexeme, 0, 0, c.sign
            FROM unnest(changes) c, unnest(tsvector_to_array(c.transcript_tsv)) AS l(lexeme)
        ) d
        GROUP BY d.account_id, d.lexeme
        HAVING SUM(d.in_any) <> 0 OR SUM(d.in_caption) <> 0 OR SUM(d.in_transcript) <> 0
        ORDER BY d.account_id, d.lexeme
      ON CONFLICT (account_id, lexeme) DO UPDATE SET in_any = t.in_any + excluded.in_any,
        in_caption = t.in_caption + excluded.in_caption, in_transcript = t.in_transcript + excluded.in_transcript;
    $fn$;

    CREATE FUNCTION segment_search_counted() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM segment_search_count(ARRAY(
          SELECT ROW(n.account_id, n.tokens, n.document, n.caption_tsv, n.transcript_tsv, 1)::segment_search_change
          FROM new_rows n));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM segment_search_count(ARRAY(
          SELECT ROW(o.account_id, o.tokens, o.document, o.caption_tsv, o.transcript_tsv, -1)::segment_search_change
          FROM old_rows o));
      ELSE
        PERFORM segment_search_count(ARRAY(
          SELECT ROW(o.account_id, o.tokens, o.document, o.caption_tsv, o.transcript_tsv, -1)::segment_search_change
          FROM old_rows o
          UNION ALL
          SELECT ROW(n.account_id, n.tokens, n.document, n.caption_tsv, n.transcript_tsv, 1)::segment_search_change
          FROM new_rows n));
      END IF;
      RETURN NULL;
    END
    $fn$;

    CREATE TRIGGER segment_search_inserted AFTER INSERT ON segment_search
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_search_counted();
    CREATE TRIGGER segment_search_updated AFTER UPDATE ON segment_search
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_search_counted();
    CREATE TRIGGER segment_search_deleted AFTER DELETE ON segment_search
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_search_counted();

    DO $backfill$
    DECLARE
      low BIGINT := 0;
      high BIGINT := (SELECT COALESCE(MAX(segment_id), -1) FROM segment_search);
    BEGIN
      WHILE low <= high LOOP
        PERFORM segment_search_count(ARRAY(
          SELECT ROW(s.account_id, s.tokens, s.document, s.caption_tsv, s.transcript_tsv, 1)::segment_search_change
          FROM segment_search s WHERE s.segment_id >= low AND s.segment_id < low + 10000));
        low := low + 10000;
      END LOOP;
    END
    $backfill$;
  `,
};
