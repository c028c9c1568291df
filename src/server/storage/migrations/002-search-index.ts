import type { Migration } from '../../../shared/sqlite-migrate';

/** Full-text index over everything that describes a segment; rowid = segments.id. */
export const m002SearchIndex: Migration = {
  version: 2,
  name: 'search-index',
  up: `
    CREATE VIRTUAL TABLE segments_fts USING fts5(
      caption, transcript, ocr_text, labels, names,
      tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE VIRTUAL TABLE segments_trigram USING fts5(
      body,
      tokenize = 'trigram'
    );
  `,
};
