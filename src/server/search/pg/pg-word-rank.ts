import { z } from 'zod';
import type { Sql } from '../../storage/sql';
import type { Where } from '../../storage/where';
import type { SearchField } from '../segment-types';
import { MAX_RANKED_ROWS } from '../ranking/ranked-match';
import { COLUMN_WEIGHTS, type Bm25Phrase } from './bm25';
import { textArray } from './pg-text-array';
import { mergePostings, postingList } from './pg-posting-lists';

/**
 * A match on single words, as posting lists answer it: a row holding, for each list of `any`, at least one of its
 * lexemes, and none of `none` (in the searched field).
 */
export interface WordMatch {
  any: readonly (readonly string[])[];
  none: readonly string[];
}

/**
 * Where a ranking's postings come from: the account, the searched field, the scope (scopeOf, over `f` with its
 * video_id), and the live phrases' lexemes, one per phrase (all single words), in the order bm25 sums them.
 */
export interface WordSource {
  sql: Sql;
  accountId: number;
  field: SearchField;
  scope: { join: string; where: Where };
  phraseLexemes: readonly string[];
}

/** One candidate from posting lists: each phrase's weighted instances in it (bm25's f, in phrase order). */
export interface WordCandidate {
  id: number;
  tokens: number;
  f: Float64Array;
}

/** What a posting says of its word for a field: weighted instances in every column, or raw ones in one column. */
const FIELD: Record<SearchField, { value: string; only: string; weight: number }> = {
  all: { value: 'f.weighted', only: '', weight: 1 },
  caption: { value: 'f.in_caption', only: 'AND f.in_caption > 0', weight: COLUMN_WEIGHTS[0] },
  transcript: { value: 'f.in_transcript', only: 'AND f.in_transcript > 0', weight: COLUMN_WEIGHTS[1] },
};

const listRow = z.object({
  k: z.number(),
  ids: z.string().nullable(),
  tokens: z.string().nullable(),
  counts: z.string().nullable(),
});

/**
 * The newest `window` rows of the account matching `match` that the scope keeps (at or above segment id `from`), from
 * segment_search_words (migration 19): each lexeme's postings read in key order from the index (backwards: newest
 * first), merged here as FTS5 merges its per-word lists (pg-posting-lists.ts), instead of each candidate's tsvector
 * from the heap and a ts_filter per row (pg-candidates.ts, still used for phrases of several words). Grouping the
 * postings by segment in PostgreSQL hashed them all, spilling to disk past work_mem (3 words in ~2% of 100,000 rows:
 * 7,000 postings, 11 ms of a 28 ms search in bench search-pg).
 */
export async function wordCandidates(
  { sql, accountId, field, scope, phraseLexemes }: WordSource,
  match: WordMatch,
  window: number,
  from = 0,
): Promise<WordCandidate[]> {
  const lexemes = [...new Set([...phraseLexemes, ...match.any.flat(), ...match.none])];
  // Each lexeme's roles as bits: bit i for the i-th list of `any`, the next for `none`. A row matches when its
  // lexemes' bits together hold every `any` bit and not the `none` one.
  const noneBit = 2 ** match.any.length;
  const masks = lexemes.map(
    (l) =>
      match.any.reduce((m, list, i) => (list.includes(l) ? m | (2 ** i) : m), 0) |
      (match.none.includes(l) ? noneBit : 0),
  );
  const anyBits = noneBit - 1;
  const { value, only, weight } = FIELD[field];
  const rows = z.array(listRow).parse(
    await sql.all(
      `SELECT q.k, l.ids, l.tokens, l.counts FROM unnest(CAST(? AS TEXT[])) WITH ORDINALITY q(lexeme, k)
       CROSS JOIN LATERAL (
         SELECT string_agg(CAST(f.segment_id AS TEXT), ',') AS ids, string_agg(CAST(f.tokens AS TEXT), ',') AS tokens,
           string_agg(CAST(f.n AS TEXT), ',') AS counts
         FROM (
           SELECT f.segment_id, f.tokens, ${value} AS n FROM segment_search_words f ${scope.join}
           WHERE f.account_id = ? AND f.lexeme = q.lexeme AND f.segment_id >= ? ${only} AND ${scope.where.sql}
           ORDER BY f.segment_id DESC
         ) f
       ) l`,
      textArray(lexemes),
      accountId,
      from,
      ...scope.where.args,
    ),
  );
  const lists = lexemes.map(() => postingList(null, null, null));
  for (const r of rows) lists[r.k - 1] = postingList(r.ids, r.tokens, r.counts);
  const phrasesOf = lexemes.map((l) => phraseLexemes.flatMap((p, k) => (p === l ? [k] : [])));
  return mergePostings(lists, masks, anyBits | noneBit, anyBits, window).map(({ id, tokens, counts }) => {
    const f = new Float64Array(phraseLexemes.length);
    counts.forEach((count, i) => {
      if (count !== 0) for (const k of phrasesOf[i]!) f[k] = weight * count;
    });
    return { id, tokens, f };
  });
}

const nthRow = z.object({ segment_id: z.number() });

/**
 * `wordCandidates` reading only the postings of the account's newest rows: the newest `guess` rows first (from the
 * account's index on segment_search), four times as many while fewer than `window` of them match. What it returns is
 * exactly the newest `window` rows matching (every posting above the cut is read), at the cost of the postings above
 * the cut, not of whole lists.
 */
export async function newestWordCandidates(
  source: WordSource,
  match: WordMatch,
  window: number,
  guess: number,
): Promise<WordCandidate[]> {
  const { sql, accountId } = source;
  for (let rows = Math.max(guess, window); ; rows *= 4) {
    const found = await sql.get(
      'SELECT segment_id FROM segment_search WHERE account_id = ? ORDER BY segment_id DESC OFFSET ? LIMIT 1',
      accountId,
      rows - 1,
    );
    const from = found === undefined ? 0 : nthRow.parse(found).segment_id;
    const candidates = await wordCandidates(source, match, window, from);
    if (candidates.length >= window || from === 0) return candidates;
  }
}

/** The most postings a ranking reads from segment_search_words; past this it reads rank rows (pg-candidates.ts). */
const POSTINGS_BUDGET = 4 * MAX_RANKED_ROWS;

/**
 * The most words a ranking reads posting lists for: the 495-word attack on a 200-segment account took 25 ms from its
 * postings, 16 ms from its at most 200 rank rows (bench search-pg, same run).
 */
const MAX_POSTING_WORDS = 64;

/**
 * How a search's rankings read posting lists, if they do: a function from a match and its window to the candidates,
 * undefined for a match that reads rank rows instead. Only for phrases of one word each, at most MAX_POSTING_WORDS.
 * A list is read whole while the phrases' rows together stay within the budget (1-3 words in ~2% of 100,000 rows
 * each); past it only the newest rows' postings, as many rows as the words' shares (taken as independent: a guess,
 * which newestWordCandidates widens if short) say hold the window's matches, with a margin, and only if those
 * postings fit the budget and no filter but the videos' status (`keepsAll`) thins the rows by an unknown part. Else
 * rank rows: whole lists lost there (32 words in ~2% of rows each, read whole: 0.6x -> 0.19x of SQLite's speed).
 */
export function postingReader(
  source: WordSource,
  phrases: readonly Bm25Phrase[],
  accountRows: number,
  keepsAll: boolean,
): ((match: WordMatch, window: number) => Promise<WordCandidate[]> | undefined) | undefined {
  if (phrases.length > MAX_POSTING_WORDS || !phrases.every((p) => p.lexemes.length === 1)) return undefined;
  const total = phrases.reduce((s, p) => s + p.hits, 0);
  if (total <= POSTINGS_BUDGET) return (match, window) => wordCandidates(source, match, window);
  if (!keepsAll) return undefined;
  const rows = Math.max(1, accountRows);
  const share = new Map(phrases.map((p) => [p.lexemes[0]!, Math.min(1, p.hits / rows)]));
  const absent = (lexemes: readonly string[]): number => lexemes.reduce((m, l) => m * (1 - (share.get(l) ?? 0)), 1);
  return (match, window) => {
    const matching = match.any.reduce((m, list) => m * (1 - absent(list)), absent(match.none));
    const newest = Math.ceil((1.25 * window) / Math.max(matching, 1 / rows));
    return (total * newest) / rows <= POSTINGS_BUDGET ? newestWordCandidates(source, match, window, newest) : undefined;
  };
}
