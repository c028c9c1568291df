import { tokenize } from '../query/query-text';
import { porterStem } from './porter';
import type { SegmentText } from '../segment-types';
import type { Sql } from '../../storage/sql';

/** The text search configuration of migration 8: each word as written (already stemmed), no stop words. */
export const SEARCH_CONFIG = 'reelsync_search';

/**
 * A column's text as FTS5's tokenizer indexes it (unicode61: letters and digits, lower-cased, accents folded; then
 * porter), one space between stems, so PostgreSQL's parser sees exactly those: lexemes, positions and word counts
 * agree with FTS5's.
 */
export function stemmedWords(text: string): string {
  return tokenize(text).map(porterStem).join(' ');
}

const tsv = `to_tsvector(CAST('${SEARCH_CONFIG}' AS regconfig), CAST(? AS TEXT))`;
const ROW = `(?, ?, ?, ?, ?, ?, ${tsv}, ${tsv}, ${tsv}, ${tsv}, ${tsv})`;

/**
 * PostgreSQL's twin of segment-index.ts `indexSegment`: adds (or replaces) one segment's row in segment_search. Call it
 * on the transaction that wrote the segment.
 */
export async function indexSegmentPg(sql: Sql, accountId: number, segmentId: number, text: SegmentText): Promise<void> {
  await indexSegmentsPg(sql, accountId, [{ segmentId, text }]);
}

/** `indexSegmentPg` for many segments of one account in one statement (keep a batch under ~5,000: 11 parameters each). */
export async function indexSegmentsPg(
  sql: Sql,
  accountId: number,
  segments: ReadonlyArray<{ segmentId: number; text: SegmentText }>,
): Promise<void> {
  if (segments.length === 0) return;
  const params = segments.flatMap(({ segmentId, text }) => {
    const columns = [text.caption, text.transcript, text.ocrText, text.labels, text.names];
    const body = columns.join(' ');
    return [segmentId, accountId, text.names, text.labels, body, tokenize(body).length, ...columns.map(stemmedWords)];
  });
  await sql.run(
    `INSERT INTO segment_search (segment_id, account_id, names, label_text, body, tokens,
       caption_tsv, transcript_tsv, ocr_tsv, labels_tsv, names_tsv)
     VALUES ${segments.map(() => ROW).join(', ')}
     ON CONFLICT (segment_id) DO UPDATE SET account_id = excluded.account_id, names = excluded.names,
       label_text = excluded.label_text, body = excluded.body, tokens = excluded.tokens,
       caption_tsv = excluded.caption_tsv, transcript_tsv = excluded.transcript_tsv, ocr_tsv = excluded.ocr_tsv,
       labels_tsv = excluded.labels_tsv, names_tsv = excluded.names_tsv`,
    ...params,
  );
}

/**
 * PostgreSQL's twin of segment-index.ts `unindexVideo`: removes a video's segments from the search table. Deleting the
 * segments removes their rows too (ON DELETE CASCADE); re-indexing a video calls this first, like on SQLite.
 */
export async function unindexVideoPg(sql: Sql, accountId: number, videoId: number): Promise<void> {
  await sql.run(
    'DELETE FROM segment_search WHERE account_id = ? AND segment_id IN (SELECT id FROM segments WHERE video_id = ?)',
    accountId,
    videoId,
  );
}
