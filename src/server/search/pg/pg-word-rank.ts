import { z } from 'zod';
import type { Sql } from '../../storage/sql';
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
  // Each lexeme's roles as bits: bit i for the i-th list of `any`, the next for `none`. A row matches when its
  // lexemes' bits together hold every `any` bit and not the `none` one (a hash join, not a search of long arrays).
  const noneBit = 2 ** match.any.length;
  const masks = lexemes.map(
    (l) =>
      match.any.reduce((m, list, i) => (list.includes(l) ? m | (2 ** i) : m), 0) |
      (match.none.includes(l) ? noneBit : 0),
  );
  const anyBits = noneBit - 1;
  const { value, only, weight } = FIELD[field];
  const { found } = foundRow.parse(
    await sql.get(
      `SELECT string_agg(c.id || ' ' || c.tokens || c.fs, E'\\n') AS found FROM (
         SELECT f.segment_id AS id, f.tokens, f.fs FROM (
           SELECT p.segment_id, max(p.video_id) AS video_id, max(p.tokens) AS tokens,
             string_agg(' ' || p.lexeme || ':' || ${value}, '') AS fs
           FROM segment_search_words p JOIN unnest(CAST(? AS TEXT[]), CAST(? AS INT[])) q(lexeme, mask)
             ON q.lexeme = p.lexeme
           WHERE p.account_id = ? AND p.lexeme = ANY(CAST(? AS TEXT[])) ${only}
           GROUP BY p.segment_id
           HAVING bit_or(q.mask) & ? = ?
         ) f ${scope.join}
         WHERE ${scope.where.sql}
         ORDER BY f.segment_id DESC LIMIT ?
       ) c`,
      textArray(lexemes),
      `{${masks.join(',')}}`,
      accountId,
      textArray(lexemes),
      anyBits | noneBit,
      anyBits,
      ...scope.where.args,
      window,
    ),
  );
  const phrasesOf = new Map(lexemes.map((l) => [l, phraseLexemes.flatMap((p, k) => (p === l ? [k] : []))]));
  return postingText(found ?? '').map(({ id, tokens, counts }) => {
    const f = new Float64Array(phraseLexemes.length);
    for (const [lexeme, count] of counts) for (const k of phrasesOf.get(lexeme) ?? []) f[k] = weight * count;
    return { id, tokens, f };
  });
}

/** Lines of `id tokens lexeme:count lexeme:count...` (lexemes hold no space or colon: tokenized words are letters
 * and digits); throws on text not in this shape. */
export function postingText(text: string): { id: number; tokens: number; counts: [string, number][] }[] {
  if (text === '') return [];
  return text.split('\n').map((line) => {
    const [id, tokens, ...rest] = line.split(' ');
    const counts = rest.map((pair): [string, number] => {
      const at = pair.lastIndexOf(':');
      if (at <= 0) throw new Error(`posting rows: "${pair}" is no lexeme:count`);
      return [pair.slice(0, at), number(pair.slice(at + 1))];
    });
    return { id: number(id), tokens: number(tokens), counts };
  });
}

function number(text: string | undefined): number {
  const n = Number(text);
  if (text === undefined || text === '' || !Number.isFinite(n)) throw new Error(`posting rows: "${text}" is no number`);
  return n;
}
