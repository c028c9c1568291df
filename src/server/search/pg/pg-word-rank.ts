import { z } from 'zod';
import type { Sql, SqlParam } from '../../storage/sql';
import type { Where } from '../../storage/where';
import type { SearchField } from '../segment-types';
import { COLUMN_WEIGHTS } from './bm25';
import { textArray } from './pg-candidates';

/**
 * A match on single words, as posting lists answer it: a row holding, for each list of `any`, at least one of its
 * lexemes, and none of `none` (in the searched field).
 */
export interface WordMatch {
  any: readonly (readonly string[])[];
  none: readonly string[];
}

/** One candidate from posting lists: each phrase's weighted instances in it (bm25's f, in phrase order). */
export interface WordCandidate {
  id: number;
  tokens: number;
  f: Float64Array;
}

/** What a posting says of its word for a field: weighted instances in every column, or raw ones in one column. */
const FIELD: Record<SearchField, { value: string; only: string; weight: number }> = {
  all: { value: 'p.weighted', only: '', weight: 1 },
  caption: { value: 'p.in_caption', only: 'AND p.in_caption > 0', weight: COLUMN_WEIGHTS[0] },
  transcript: { value: 'p.in_transcript', only: 'AND p.in_transcript > 0', weight: COLUMN_WEIGHTS[1] },
};

const foundRow = z.object({ found: z.string().nullable() });

/**
 * The newest `window` rows of the account matching `match` that the scope keeps (scopeOf, over `f` with its
 * video_id), from segment_search_words (migration 19): each phrase's postings are read in key order from the index,
 * grouped by segment, as FTS5 reads its per-word lists, instead of each candidate's tsvector from the heap and a
 * ts_filter per row (pg-candidates.ts, still used for phrases of several words). `phraseLexemes` are the phrases'
 * lexemes, one per phrase (all single words), in the order bm25 sums them.
 */
export async function wordCandidates(
  sql: Sql,
  accountId: number,
  field: SearchField,
  match: WordMatch,
  scope: { join: string; where: Where },
  window: number,
  phraseLexemes: readonly string[],
): Promise<WordCandidate[]> {
  const lexemes = [...new Set([...phraseLexemes, ...match.any.flat(), ...match.none])];
  const having: string[] = [];
  const args: SqlParam[] = [];
  for (const list of match.any) {
    having.push('bool_or(p.lexeme = ANY(CAST(? AS TEXT[])))');
    args.push(textArray(list));
  }
  if (match.none.length) {
    having.push('NOT bool_or(p.lexeme = ANY(CAST(? AS TEXT[])))');
    args.push(textArray(match.none));
  }
  const { value, only, weight } = FIELD[field];
  const { found } = foundRow.parse(
    await sql.get(
      `SELECT string_agg(c.id || ' ' || c.tokens || c.fs, E'\\n') AS found FROM (
         SELECT f.segment_id AS id, f.tokens, f.fs FROM (
           SELECT p.segment_id, max(p.video_id) AS video_id, max(p.tokens) AS tokens,
             string_agg(' ' || array_position(CAST(? AS TEXT[]), p.lexeme) || ':' || ${value}, '') AS fs
           FROM segment_search_words p
           WHERE p.account_id = ? AND p.lexeme = ANY(CAST(? AS TEXT[])) ${only}
           GROUP BY p.segment_id
           HAVING ${having.length ? having.join(' AND ') : 'true'}
         ) f ${scope.join}
         WHERE ${scope.where.sql}
         ORDER BY f.segment_id DESC LIMIT ?
       ) c`,
      textArray(lexemes),
      accountId,
      textArray(lexemes),
      ...args,
      ...scope.where.args,
      window,
    ),
  );
  // Each distinct lexeme (1-based, as array_position counts) stands for the phrases that are it.
  const phrasesOf = lexemes.map((l) => phraseLexemes.flatMap((p, k) => (p === l ? [k] : [])));
  return postingText(found ?? '').map(({ id, tokens, counts }) => {
    const f = new Float64Array(phraseLexemes.length);
    for (const [position, count] of counts) for (const k of phrasesOf[position - 1] ?? []) f[k] = weight * count;
    return { id, tokens, f };
  });
}

/** Lines of `id tokens k:count k:count...` as numbers; throws on text not in this shape. */
export function postingText(text: string): { id: number; tokens: number; counts: [number, number][] }[] {
  if (text === '') return [];
  return text.split('\n').map((line) => {
    const [id, tokens, ...rest] = line.split(' ');
    const counts = rest.map((pair): [number, number] => {
      const [k, count] = pair.split(':');
      return [number(k), number(count)];
    });
    return { id: number(id), tokens: number(tokens), counts };
  });
}

function number(text: string | undefined): number {
  const n = Number(text);
  if (text === undefined || text === '' || !Number.isFinite(n)) throw new Error(`posting rows: "${text}" is no number`);
  return n;
}
