import { z } from 'zod';
import { tokenize, type ParsedQuery } from '../query/query-text';
import type { Sql } from '../../storage/sql';

/** pg_trgm's word similarity a typed word needs to an indexed word to stand for it (pg_trgm's own default). */
const MIN_WORD_SIMILARITY = 0.6;
/** Words shorter than this are left as typed: three letters have too few trigrams to tell a typo from another word. */
const MIN_FUZZY_LENGTH = 4;
/** The bodies whose words are weighed, best trigram match first. */
const BODIES = 50;

const wordRow = z.object({ w: z.string() });

/**
 * The account's indexed word closest to `term` by trigram similarity (pg_trgm, on segment_search's trigram index): a
 * typo ("helicoptr") or a piece of a word ("copter") finds "helicopter". Undefined when nothing is close enough.
 */
export async function nearestWord(sql: Sql, accountId: number, term: string): Promise<string | undefined> {
  if (term.length < MIN_FUZZY_LENGTH || /^\d+$/.test(term)) return undefined;
  const found = await sql.get(
    `WITH bodies AS (
       SELECT body FROM segment_search WHERE account_id = ? AND body %> CAST(? AS TEXT)
       ORDER BY word_similarity(CAST(? AS TEXT), body) DESC, segment_id DESC LIMIT ${BODIES}
     ), words AS (
       SELECT DISTINCT lower(w) AS w FROM bodies, regexp_split_to_table(bodies.body, '[[:space:][:punct:]]+') AS w
       WHERE length(w) >= ${MIN_FUZZY_LENGTH - 1}
     )
     SELECT w FROM words WHERE word_similarity(CAST(? AS TEXT), w) >= ${MIN_WORD_SIMILARITY}
     ORDER BY word_similarity(CAST(? AS TEXT), w) DESC, similarity(CAST(? AS TEXT), w) DESC, w LIMIT 1`,
    accountId,
    term,
    term,
    term,
    term,
    term,
  );
  if (found === undefined) return undefined;
  const word = tokenize(wordRow.parse(found).w).join(' ');
  return word && word !== term ? word : undefined;
}

/**
 * The query with each of `missing` (terms no segment of the account contains) standing also for its nearest indexed
 * word, as one of its expansions: it is searched, covered and explained like a synonym (counting 0.85 of the word as
 * typed), so a typo finds what the word would have. Terms nothing is near stay as they are.
 */
export async function withNearestWords(
  sql: Sql,
  accountId: number,
  query: ParsedQuery,
  missing: readonly string[],
): Promise<ParsedQuery> {
  const expansions = new Map(query.expansions);
  for (const term of missing) {
    const near = await nearestWord(sql, accountId, term);
    if (near) expansions.set(term, [...(expansions.get(term) ?? []), near.split(' ')]);
  }
  return { ...query, expansions };
}
