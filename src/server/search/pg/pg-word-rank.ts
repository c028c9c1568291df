import { z } from 'zod';
import type { Sql, SqlParam } from '../../storage/sql';
import type { Where } from '../../storage/where';
import type { SearchField } from '../segment-types';
import { MAX_RANKED_ROWS } from '../ranking/ranked-match';
import { COLUMN_WEIGHTS, type Bm25Phrase } from './bm25';
import { intArray, textArray } from './pg-array-literals';
import { porterStem } from './porter';
import { mergePostings, postingList, type PostingList } from './pg-posting-lists';

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
  /** Whole lists read with the word counts, if they were. */
  prefetched?: PostingPrefetch;
}

/** What a posting list is read for: the account, the searched field and the scope. */
type ListSource = Pick<WordSource, 'accountId' | 'field' | 'scope'>;

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
 * One lexeme's postings in the searched field that the scope keeps, at or above segment id `from`, as one row of
 * comma-separated ids, word counts and instances (pg-posting-lists.ts reads them): a subquery for a LATERAL join,
 * `lexeme` naming the lexeme's column there, `gate` a further condition on it.
 */
function postingListSql(
  { accountId, field, scope }: ListSource,
  lexeme: string,
  from: number,
  gate = { sql: 'TRUE', args: [] as SqlParam[] },
): { sql: string; args: SqlParam[] } {
  const { value, only } = FIELD[field];
  return {
    sql: `SELECT string_agg(CAST(f.segment_id AS TEXT), ',') AS ids, string_agg(CAST(f.tokens AS TEXT), ',') AS tokens,
        string_agg(CAST(f.n AS TEXT), ',') AS counts
      FROM (
        SELECT f.segment_id, f.tokens, ${value} AS n FROM segment_search_words f ${scope.join}
        WHERE f.account_id = ? AND f.lexeme = ${lexeme} AND f.segment_id >= ? ${only} AND ${scope.where.sql}
          AND ${gate.sql}
        ORDER BY f.segment_id DESC
      ) f`,
    args: [accountId, from, ...scope.where.args, ...gate.args],
  };
}

/**
 * Whole posting lists read with the query's word counts (pg-phrase-hits.ts), in the same round trip, when the
 * search will read them: its phrases are single words, and their rows together are within the budget postingReader
 * reads whole lists for (the lexemes' counts summed in PostgreSQL, before the search knows them).
 */
export class PostingPrefetch {
  private lists?: Map<string, PostingList>;

  private constructor(
    private readonly source: ListSource,
    private readonly lexemes: readonly string[],
    /** The query's phrases of several words, as lexemes. */
    private readonly multi: readonly (readonly string[])[],
  ) {}

  /**
   * A prefetch of the lists of a query's single-word phrases (each phrase a list of words), if lists can rank them.
   * Its phrases of several words stop the search ranking from lists if they are in any row: the lists are read only
   * when each such phrase has a word in no row (a thesaurus' "evergreen state" for "wa"), else they would be read in
   * vain ("red car": red, car and the bound pair).
   */
  static of(source: ListSource, phrases: readonly (readonly string[])[]): PostingPrefetch | undefined {
    const single = phrases.filter((p) => p.length === 1);
    if (single.length === 0 || single.length > MAX_POSTING_WORDS) return undefined;
    const multi = phrases.filter((p) => p.length > 1).map((p) => p.map(porterStem));
    return new PostingPrefetch(source, [...new Set(single.map((p) => porterStem(p[0]!)))], multi);
  }

  /** The LATERAL subquery for the terms' column `lexeme` (`count`: their rows in the searched field). */
  lateral(lexeme: string, count: string): { sql: string; args: SqlParam[] } {
    const { accountId } = this.source;
    const wanted = textArray(this.lexemes);
    const gate = {
      sql: `${lexeme} = ANY(CAST(? AS TEXT[])) AND (SELECT COALESCE(SUM(g.${count}), 0) FROM segment_search_terms g
          WHERE g.account_id = ? AND g.lexeme = ANY(CAST(? AS TEXT[]))) <= ?`,
      args: [wanted, accountId, wanted, POSTINGS_BUDGET] as SqlParam[],
    };
    if (this.multi.length === 0) return postingListSql(this.source, lexeme, 0, gate);
    // No phrase of several words with all of its words in some row.
    const [phrases, words] = [this.multi.flatMap((p, i) => p.map(() => i)), this.multi.flat()];
    return postingListSql(this.source, lexeme, 0, {
      sql: `${gate.sql} AND NOT EXISTS (
          SELECT 1 FROM unnest(CAST(? AS INT[]), CAST(? AS TEXT[])) u(phrase, word)
          LEFT JOIN segment_search_terms g ON g.account_id = ? AND g.lexeme = u.word AND g.${count} > 0
          GROUP BY u.phrase HAVING bool_and(g.lexeme IS NOT NULL))`,
      args: [...gate.args, intArray(phrases), textArray(words), accountId],
    });
  }

  /** Takes the lateral's rows (lexeme, ids, tokens, counts): every prefetched lexeme has one, with a null list when
   * the budget held the lists back. */
  take(rows: readonly { lexeme: string; ids: string | null; tokens: string | null; counts: string | null }[]): void {
    const fetched = rows.filter((r) => this.lexemes.includes(r.lexeme) && r.ids !== null);
    if (fetched.length === 0) return;
    this.lists = new Map(fetched.map((r) => [r.lexeme, postingList(r.ids, r.tokens, r.counts)]));
  }

  /** Whole lists of `lexemes` (a list the scope leaves empty, as empty), if all of them were read. */
  whole(lexemes: readonly string[]): PostingList[] | undefined {
    const lists = this.lists;
    if (!lists || !lexemes.every((l) => this.lexemes.includes(l))) return undefined;
    return lexemes.map((l) => lists.get(l) ?? postingList(null, null, null));
  }
}

/**
 * The newest `window` rows of the account matching `match` that the scope keeps (at or above segment id `from`), from
 * segment_search_words (migration 19): each lexeme's postings read in key order from the index (backwards: newest
 * first), merged here as FTS5 merges its per-word lists (pg-posting-lists.ts), instead of each candidate's tsvector
 * from the heap and a ts_filter per row (pg-candidates.ts, still used for phrases of several words). Grouping the
 * postings by segment in PostgreSQL hashed them all, spilling to disk past work_mem (3 words in ~2% of 100,000 rows:
 * 7,000 postings, 11 ms of a 28 ms search in bench search-pg). Whole lists prefetched with the word counts
 * (`source.prefetched`) are not read again.
 */
export async function wordCandidates(
  source: WordSource,
  match: WordMatch,
  window: number,
  from = 0,
): Promise<WordCandidate[]> {
  const { field, phraseLexemes } = source;
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
  const lists =
    (from === 0 ? source.prefetched?.whole(lexemes) : undefined) ?? (await readLists(source, lexemes, from));
  const phrasesOf = lexemes.map((l) => phraseLexemes.flatMap((p, k) => (p === l ? [k] : [])));
  const { weight } = FIELD[field];
  return mergePostings(lists, masks, anyBits | noneBit, anyBits, window).map(({ id, tokens, counts }) => {
    const f = new Float64Array(phraseLexemes.length);
    for (let i = 0; i < counts.length; i++) {
      const count = counts[i]!;
      if (count !== 0) for (const k of phrasesOf[i]!) f[k] = weight * count;
    }
    return { id, tokens, f };
  });
}

/** The lists of `lexemes` (in their order) at or above segment id `from`, in one statement. */
async function readLists(source: WordSource, lexemes: readonly string[], from: number): Promise<PostingList[]> {
  const list = postingListSql(source, 'q.lexeme', from);
  const rows = z.array(listRow).parse(
    await source.sql.all(
      `SELECT q.k, l.ids, l.tokens, l.counts FROM unnest(CAST(? AS TEXT[])) WITH ORDINALITY q(lexeme, k)
       CROSS JOIN LATERAL (${list.sql}) l`,
      textArray(lexemes),
      ...list.args,
    ),
  );
  const lists = lexemes.map(() => postingList(null, null, null));
  for (const r of rows) lists[r.k - 1] = postingList(r.ids, r.tokens, r.counts);
  return lists;
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
