import type { PgMigration } from './pg-migration';

/** The PostgreSQL-only tables of this migration (no SQLite twin: SQLite has FTS5), for pg-drift.test.ts. */
export const PG_ONLY_TABLES = /^segment_search$/;

/**
 * Segment search on PostgreSQL (search/pg/): one row per indexed segment, the twin of SQLite's per-account FTS5 tables
 * (segments_fts_<account>) and segments_trigram.
 * - Text is written already split into words by the same rules as FTS5's unicode61 tokenizer and stemmed by the same
 *   Porter stemmer (search/pg/pg-segment-index.ts, porter.ts), so `reelsync_search` sees one finished lexeme per
 *   word and keeps every one (the `simple` dictionary, no stop words: FTS5 keeps every word, and bm25 counts them).
 * - One tsvector per column (caption, transcript, on-screen text, labels, names): bm25 weighs columns apart
 *   (search/pg/bm25.ts). `document` joins them with weights A (caption), B (transcript), C (on-screen text, labels),
 *   D (names), so a caption- or transcript-only search is a weight-restricted query on the one GIN index.
 * - The GIN index leads with account_id (btree_gin): the account is inside the match, and one account's words never
 *   cost another account's search anything. `tokens` is the row's word count (bm25's document length).
 * - `body` (every column joined, as segments_trigram held it) has a pg_trgm index for fuzzy matches: a word no segment
 *   of the account contains is looked up by trigram similarity (search/pg/pg-fuzzy.ts).
 */
export const pg008SegmentSearch: PgMigration = {
  version: 8,
  name: 'segment-search',
  up: `
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE EXTENSION IF NOT EXISTS btree_gin;
    CREATE TEXT SEARCH CONFIGURATION reelsync_search (PARSER = default);
    ALTER TEXT SEARCH CONFIGURATION reelsync_search ADD MAPPING FOR
      asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart,
      email, protocol, url, host, url_path, file, sfloat, float, int, uint, version, tag, entity
      WITH simple;

    CREATE TABLE segment_search (
      segment_id BIGINT PRIMARY KEY REFERENCES segments(id) ON DELETE CASCADE,
      account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      names TEXT NOT NULL,
      label_text TEXT NOT NULL,
      body TEXT NOT NULL,
      tokens BIGINT NOT NULL,
      caption_tsv TSVECTOR NOT NULL,
      transcript_tsv TSVECTOR NOT NULL,
      ocr_tsv TSVECTOR NOT NULL,
      labels_tsv TSVECTOR NOT NULL,
      names_tsv TSVECTOR NOT NULL,
      document TSVECTOR GENERATED ALWAYS AS (
        setweight(caption_tsv, 'A') || setweight(transcript_tsv, 'B') || setweight(ocr_tsv, 'C') ||
        setweight(labels_tsv, 'C') || setweight(names_tsv, 'D')
      ) STORED
    );
    CREATE INDEX segment_search_match ON segment_search USING GIN (account_id, document);
    CREATE INDEX segment_search_fuzzy ON segment_search USING GIN (account_id, body gin_trgm_ops);
    CREATE INDEX segment_search_account ON segment_search (account_id, segment_id);
  `,
};
