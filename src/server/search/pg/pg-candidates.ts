import { z } from 'zod';
import type { Sql, SqlParam } from '../../storage/sql';
import { Where } from '../../storage/where';
import { filterOf, onlyStatusFilter, UNSEARCHABLE_VIDEOS } from '../segment-filter';
import type { SegmentFilter } from '../segment-types';
import { parseTsvector, type Bm25Row, type Positions } from './bm25';
import { candidateText, GAP } from './pg-candidate-text';
import { textArray } from './pg-array-literals';
import type { WordMatch } from './pg-word-rank';

/**
 * A condition on segment_search_rank (alias f) and its arguments; with `words` when it is on single words only, so
 * posting lists can answer it (pg-word-rank.ts).
 */
export interface Match {
  sql: string;
  args: SqlParam[];
  words?: WordMatch;
}

/** Rows matching both. */
export function bothMatch(a: Match, b: Match): Match {
  return {
    sql: `${a.sql} AND ${b.sql}`,
    args: [...a.args, ...b.args],
    words: a.words && b.words && { any: [...a.words.any, ...b.words.any], none: [...a.words.none, ...b.words.none] },
  };
}

/** Rows matching `a` but not `b` (`b` matches any of one list of words, as matchOf makes it). */
export function butNotMatch(a: Match, b: Match): Match {
  const words =
    a.words && b.words && b.words.any.length === 1 && b.words.none.length === 0
      ? { any: a.words.any, none: [...a.words.none, ...b.words.any[0]!] }
      : undefined;
  return { sql: `${a.sql} AND NOT ${b.sql}`, args: [...a.args, ...b.args], words };
}

export interface Candidate extends Bm25Row {
  id: number;
}

/**
 * Below this many words a row's `terms` is exact: no lexeme near tsvector's 256 positions, no position near its
 * 16,383, so every column's positions are as in its own tsvector. Longer rows are read from their column tsvectors.
 */
const EXACT_TOKENS = 250;

const candidateRows = z.object({ found: z.string().nullable() });
const columnsRow = z.object({
  id: z.number(),
  c0: z.string(),
  c1: z.string(),
  c2: z.string(),
  c3: z.string(),
  c4: z.string(),
});

/**
 * The rows of an account a search keeps. With no filter but the videos' status, the rows of the few videos not
 * searchable now (being indexed again, or failed) are left out by an anti-join on the account's status index, as the
 * SQLite engine lists them (search-segments.ts `unsearchableRows`), instead of joining every candidate to its video:
 * that join hashed all of the account's videos (10,000 in search-pg) or probed one per candidate, most of a short
 * query's time. A row's account is its video's (the indexer writes both); readRows checks them again.
 */
export function scopeOf(filter: SegmentFilter): { join: string; where: Where } {
  if (!onlyStatusFilter(filter)) return { join: 'JOIN videos v ON v.id = f.video_id', where: filterOf(filter) };
  return {
    join: '',
    where: new Where(
      `NOT EXISTS (SELECT 1 FROM videos v WHERE v.id = f.video_id AND v.account_id = ? AND ${UNSEARCHABLE_VIDEOS})`,
      filter.accountId,
    ),
  };
}

/**
 * The newest `window` rows of the account matching `match` that the scope (`scopeOf`) keeps, with what bm25 reads:
 * the row's words and, per column, the positions of the query's lexemes only (setweight marks them, ts_filter keeps
 * them), so a row's other words are neither sent nor parsed. One narrow table (migration 18: its words carry
 * weights A-C, so setweight D marks the query's), one ts_filter per row.
 */
export async function candidates(
  sql: Sql,
  accountId: number,
  match: Match,
  scope: { join: string; where: Where },
  window: number,
  lexemes: readonly string[],
): Promise<Candidate[]> {
  // One text for all the rows (pg-candidate-text.ts), in no particular order: the caller sorts them by rank.
  const { found: text } = candidateRows.parse(
    await sql.get(
      `SELECT string_agg(c.id || ' ' || c.tokens || ' ' || c.terms, E'\\n') AS found FROM (
         SELECT f.segment_id AS id, f.tokens,
           CAST(ts_filter(setweight(f.terms, 'D', CAST(? AS TEXT[])), '{d}') AS TEXT) AS terms
         FROM segment_search_rank f ${scope.join}
         WHERE f.account_id = ? AND ${match.sql} AND ${scope.where.sql}
         ORDER BY f.segment_id DESC LIMIT ?
       ) c`,
      textArray([...lexemes, GAP]),
      accountId,
      ...match.args,
      ...scope.where.args,
      window,
    ),
  );
  const found = candidateText(text ?? '', (tokens) => tokens < EXACT_TOKENS);
  const long = found.filter((c) => c.columns === null).map((c) => c.id);
  const columnsOf = long.length ? await columnPositions(sql, long, lexemes) : new Map<number, Positions[]>();
  return found.map((c) => ({ id: c.id, tokens: c.tokens, columns: c.columns ?? columnsOf.get(c.id) ?? [] }));
}

const TSV_COLUMNS = ['caption_tsv', 'transcript_tsv', 'ocr_tsv', 'labels_tsv', 'names_tsv'] as const;

/** The query's lexemes' positions in each column of some rows, from segment_search's own column tsvectors. */
async function columnPositions(
  sql: Sql,
  ids: readonly number[],
  lexemes: readonly string[],
): Promise<Map<number, Positions[]>> {
  const kept = textArray(lexemes);
  const columns = TSV_COLUMNS.map(
    (c, i) => `CAST(ts_filter(setweight(f.${c}, 'A', CAST(? AS TEXT[])), '{a}') AS TEXT) AS c${i}`,
  ).join(', ');
  const rows = z.array(columnsRow).parse(
    await sql.all(
      `SELECT f.segment_id AS id, ${columns} FROM segment_search f
       WHERE f.segment_id IN (${ids.map(() => '?').join(',')})`,
      ...TSV_COLUMNS.map(() => kept),
      ...ids,
    ),
  );
  return new Map(rows.map((r) => [r.id, [r.c0, r.c1, r.c2, r.c3, r.c4].map(parseTsvector)]));
}
