import type { Where } from '../../storage/where';
import { COLUMN_WEIGHTS, PhraseFrequencies, varints } from './phrase-frequencies';
import { ftsPhrases, type ParsedQuery } from '../query/query-text';
import { MAX_RANKED_ROWS, topRankedMatches, type RankedRow, type RankedSource } from '../ranking/ranked-match';
import type { SearchCache } from './search-cache';
import { hasSegmentIndex, indexedRowCount, segmentTable } from './fts-index';
import { filterOf, onlyStatusFilter, UNSEARCHABLE_VIDEOS } from '../segment-filter';
import { scoreRankedRows, type RankedSegmentRow } from '../ranking/segment-scoring';
import type { SearchField, SegmentFilter, SegmentHit } from '../segment-types';

// Search rows are read by the hundred thousand, so unlike the stores these rows are typed by their query, not parsed.
type Row = RankedSegmentRow & { rank: number };

/**
 * Common phrases in this many rows or more together are scored from their frequencies in the rows that can reach the
 * best (ranked-match.ts) rather than by FTS5's bm25, which counts every one of their rows for its idf.
 */
const COMMON_SHARES_FROM = 50_000;

/** FTS5's bm25 with the column weights: caption 3, transcript 2, on-screen text 3, labels 2.5, names 1. */
const bm25 = (table: string): string => `bm25(${table}, ${COLUMN_WEIGHTS.map((w) => w.toFixed(1)).join(', ')})`;

/**
 * Ranks indexed segments of one account by FTS5 (bm25) and calibrates each to [0, 1]:
 * score = 0.7 x coverage + 0.3 x strength, where coverage is the share of query terms/phrases present in what the
 * segment shows and says (captions, transcript, on-screen text, labels; names of file, folder, camera and tags count
 * half) and strength is bm25 squashed by 1 - e^(rank/4), or, where bm25 is nothing (a word in half the rows or more),
 * 0.1 x the share of the matched text's words that match. Hits on the names alone come after every other hit
 * (belowContent). bm25 runs on the account's own index (segment-index.ts), so
 * its statistics and therefore every score depend on the caller's segments only.
 */
export function searchSegments(
  cache: SearchCache,
  query: ParsedQuery,
  field: SearchField,
  filter: SegmentFilter,
  limit: number,
): SegmentHit[] {
  const column = field === 'all' ? undefined : field;
  const phrases = ftsPhrases(query);
  if (phrases.length === 0 || !hasSegmentIndex(cache, filter.accountId)) return [];
  const table = segmentTable(filter.accountId);
  const scope = (body: string): string => (column ? `${column} : (${body})` : body);
  // The best rows by bm25 among those the filters keep (the common words' rows are not all scored: see ranked-match).
  const wanted = Math.min(5000, limit * 2);
  const rows = readRows(
    cache,
    topRankedMatches(segmentSource(cache, filter, filterOf(filter)), phrases, scope, wanted),
    table,
    filter.accountId,
  );
  return scoreRankedRows(rows, query, field, filter, limit);
}

/**
 * FTS5 ranks and cuts to the best candidates on its own (fast); filters apply to those. When filters leave too few,
 * the search runs again over every match, so a filter never hides a result that exists. Only ids and ranks are read
 * here: the rows themselves are read once, for the final candidates.
 */
function segmentSource(cache: SearchCache, filter: SegmentFilter, where: Where): RankedSource<RankedRow> {
  const accountId = filter.accountId;
  const table = segmentTable(accountId);
  const hidden = onlyStatusFilter(filter) ? unsearchableRows(cache, accountId) : undefined;
  const sql = (capped: boolean): string =>
    `WITH ranked AS (
       SELECT rowid AS id, ${bm25(table)} AS rank FROM ${table}
       WHERE ${table} MATCH ?
       ORDER BY rank, rowid LIMIT ${capped ? '?' : '-1'}
     )
     SELECT ranked.id, ranked.rank FROM ranked JOIN segments s ON s.id = ranked.id JOIN videos v ON v.id = s.video_id
     WHERE ${where.sql}
     ORDER BY ranked.rank, ranked.id LIMIT ?`;
  const newest = `WITH recent AS (
       SELECT ${table}.rowid AS id, ${bm25(table)} AS rank FROM ${table} JOIN segments s ON s.id = ${table}.rowid JOIN videos v ON v.id = s.video_id
       WHERE ${table} MATCH ? AND ${where.sql}
       ORDER BY ${table}.rowid DESC LIMIT ?
     )
     SELECT id, rank FROM recent ORDER BY rank, id LIMIT ?`;
  const count = (match: string, cap: number): number =>
    (
      cache
        .statement(`SELECT COUNT(*) AS n FROM (SELECT rowid FROM ${table} WHERE ${table} MATCH ? LIMIT ?)`)
        .get(match, cap) as { n: number }
    ).n;
  const version = indexVersion(cache, table);
  const totals = indexTotals(cache, table);
  return {
    rows: indexedRowCount(cache, accountId),
    frequencies: totals && {
      minHits: COMMON_SHARES_FROM,
      averageLength: totals.tokens / totals.rows,
      read: (base, withPhrase, ids) =>
        new PhraseFrequencies((q) => cache.statement(q), table).read(base, withPhrase, ids),
    },
    maxRanked: MAX_RANKED_ROWS,
    count,
    hits: (match) =>
      cache.phraseHits.hits(
        accountId,
        version,
        match,
        () =>
          (cache.statement(`SELECT COUNT(*) AS n FROM ${table} WHERE ${table} MATCH ?`).get(match) as { n: number }).n,
      ),
    top(match, wanted, matching) {
      if (hidden)
        return cache
          .statement(
            `SELECT rowid AS id, ${bm25(table)} AS rank FROM ${table}
             WHERE ${table} MATCH ? AND +rowid NOT IN (SELECT value FROM json_each(?))
             ORDER BY rank, rowid LIMIT ?`,
          )
          .all(match, hidden, wanted) as RankedRow[];
      const candidates = wanted * 4;
      const rows = cache.statement(sql(true)).all(match, candidates, ...where.args, wanted) as RankedRow[];
      if (rows.length >= wanted || matching <= candidates || count(match, candidates + 1) <= candidates) return rows;
      return cache.statement(sql(false)).all(match, ...where.args, wanted) as RankedRow[];
    },
    newest: (match, wanted, window) =>
      hidden
        ? (cache
            .statement(
              `SELECT id, rank FROM (
                 SELECT rowid AS id, ${bm25(table)} AS rank FROM ${table}
                 WHERE ${table} MATCH ? AND +rowid NOT IN (SELECT value FROM json_each(?))
                 ORDER BY rowid DESC LIMIT ?
               ) ORDER BY rank, id LIMIT ?`,
            )
            .all(match, hidden, window, wanted) as RankedRow[])
        : (cache.statement(newest).all(match, ...where.args, window, wanted) as RankedRow[]),
  };
}

/**
 * The version of an account's full-text index as FTS5 keeps it: its structure record (segments and a write counter
 * that every flush of new rows or deletions moves) and its averages record (rows and tokens per column).
 */
function indexVersion(cache: SearchCache, table: string): string {
  return (
    (
      cache
        .statement(
          `SELECT group_concat(hex(block), '.') AS v FROM (SELECT block FROM ${table}_data WHERE id IN (1, 10) ORDER BY id)`,
        )
        .get() as {
        v: string | null;
      }
    ).v ?? ''
  );
}

/** Past this many rows of videos not (or no longer) indexed, ranking joins every candidate to its video instead. */
const MAX_HIDDEN_ROWS = 20_000;

/**
 * The account's indexed rows whose video is not searchable now (being indexed again, or failed), as a JSON list, or
 * undefined when there are too many to list. The full-text table holds the account's segments only (one table per
 * account), so a search without other filters ranks it directly, leaving these out, instead of joining every
 * candidate to its segment and video (most of a common word's search at 1,000,000 segments); readRows still joins
 * the rows returned and checks their account.
 */
function unsearchableRows(cache: SearchCache, accountId: number): string | undefined {
  const ids = cache
    .statement(
      `SELECT s.id FROM videos v JOIN segments s ON s.video_id = v.id
       WHERE v.account_id = ? AND ${UNSEARCHABLE_VIDEOS} LIMIT ?`,
    )
    .pluck(true)
    .all(accountId, MAX_HIDDEN_ROWS + 1) as number[];
  return ids.length > MAX_HIDDEN_ROWS ? undefined : JSON.stringify(ids);
}

/** Rows and tokens of an account's full-text index, from FTS5's averages record (undefined while empty). */
function indexTotals(cache: SearchCache, table: string): { rows: number; tokens: number } | undefined {
  const found = cache.statement(`SELECT block FROM ${table}_data WHERE id = 1`).get() as { block: unknown } | undefined;
  if (!(found?.block instanceof Uint8Array) || found.block.length === 0) return undefined;
  const [rows = 0, ...columns] = varints(found.block);
  return rows > 0 ? { rows, tokens: columns.reduce((s, n) => s + n, 0) } : undefined;
}

/** The segments and their videos for ranked ids, in the same order. */
function readRows(cache: SearchCache, ranked: RankedRow[], table: string, accountId: number): Row[] {
  if (ranked.length === 0) return [];
  const found = cache
    .statement(
      `SELECT s.id, v.video_no, v.video_name, v.bucket, v.blob, v.latitude, v.longitude, s.keyframe_blob, s.start_time, s.end_time,
            s.caption, s.transcript, s.ocr_text, s.caption_vector, s.labels, f.names, f.labels AS label_text, s.shot_quality
     FROM json_each(?) j CROSS JOIN segments s ON s.id = j.value CROSS JOIN videos v ON v.id = s.video_id
       CROSS JOIN ${table} f ON f.rowid = s.id
     WHERE v.account_id = ? AND v.status = 'PARSE'`,
    )
    .all(JSON.stringify(ranked.map((r) => r.id)), accountId) as Row[];
  const byId = new Map(found.map((r) => [r.id, r]));
  const rows: Row[] = [];
  for (const r of ranked) {
    const row = byId.get(r.id);
    if (row) {
      row.rank = r.rank;
      rows.push(row);
    }
  }
  return rows;
}
