/**
 * One account's full-text index on SQLite (rowid = segments.id): its name and its DDL as the search engine creates it
 * today. Migration 005 created the first of these tables and keeps its own frozen copy of both.
 */
export function segmentTable(accountId: number): string {
  if (!Number.isSafeInteger(accountId) || accountId < 1) throw new RangeError(`invalid account id ${accountId}`);
  return `segments_fts_${accountId}`;
}

export function segmentTableDdl(accountId: number): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${segmentTable(accountId)} USING fts5(
    caption, transcript, ocr_text, labels, names,
    tokenize = 'porter unicode61 remove_diacritics 2'
  )`;
}
