/**
 * The best rows of an FTS5 OR query by bm25, without scoring every row of its most common words.
 *
 * FTS5's bm25 is a sum over the query's phrases: idf(phrase) x a term-frequency part below k1 + 1. A word found in many
 * rows has a small idf, and none at all in half the rows or more (FTS5 floors it at 1e-6), yet ranking the plain OR
 * query scores every one of its rows. So the phrases are split ("max-score" pruning): the rarer ones (E) and the
 * common ones (C), whose bm25 shares together stay under a bound. Then:
 * - A = the best rows matching E, scored on E: exact for rows without any C phrase;
 * - B = the best rows matching E AND C, scored on every phrase: exact for the rest of E's rows;
 * - rows matching C alone score under the bound, so when the last of the best of A and B scores above it, none of
 *   them can be among the best; otherwise the best of them are found the same way (C NOT E), one level down.
 * Every row returned carries the bm25 the plain OR query gives it, and the rows are the plain query's best, with one
 * exception: rows matched only by words in half the rows or more (bm25 ~1e-6, which the calibrated score rounds to
 * 0: all tied) are taken from the newest matching rows, ranked by bm25 among themselves, rather than from all.
 */

/** FTS5's bm25 constant k1: one phrase adds less than idf x (k1 + 1) to a row's score. */
const K1 = 1.2;

/** FTS5's idf for a phrase found in half the rows or more. */
export const FLOOR_IDF = 1e-6;

/** Splitting pays only when the common phrases would have FTS5 score at least this many more rows. */
const MIN_SPLIT_ROWS = 4000;

export interface RankedRow {
  id: number;
  /** FTS5's bm25 value: negative, lower is better. */
  rank: number;
}

export interface RankedSource<T extends RankedRow> {
  /** Rows in the index, as bm25 counts them. */
  rows: number;
  /** Rows matching an expression. */
  count(match: string): number;
  /** The best `wanted` rows for an expression, best first, exactly (filters applied); `matching` bounds its rows. */
  top(match: string, wanted: number, matching: number): T[];
  /** The best `wanted` rows by bm25 among the newest `window` rows matching an expression (filters applied). */
  newest(match: string, wanted: number, window: number): T[];
}

/** bm25's idf in FTS5: log((N - n + 0.5) / (n + 0.5)), floored at 1e-6 for words in half the rows or more. */
export function ftsIdf(rows: number, hits: number): number {
  const idf = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return idf <= 0 ? FLOOR_IDF : idf;
}

export interface Phrase {
  fts: string;
  hits: number;
  idf: number;
}

/**
 * The best `wanted` rows whose text matches any of `phrases` (FTS5 strings, each quoted), ranked by bm25 over all of
 * them, best first. `scope` wraps a boolean expression of phrases in the column filter, if any.
 */
export function topRankedMatches<T extends RankedRow>(
  source: RankedSource<T>,
  phrases: string[],
  scope: (body: string) => string,
  wanted: number,
): T[] {
  const live: Phrase[] = [];
  for (const fts of new Set(phrases)) {
    const hits = source.count(scope(fts));
    // A phrase no row contains adds nothing to any row's bm25: leave it out of the query.
    if (hits > 0) live.push({ fts, hits, idf: ftsIdf(source.rows, hits) });
  }
  return live.length ? rankLevel(source, live, [], scope, wanted) : [];
}

/** The best rows matching any of `phrases` and none of `without`. */
function rankLevel<T extends RankedRow>(source: RankedSource<T>, phrases: Phrase[], without: Phrase[], scope: (body: string) => string, wanted: number): T[] {
  const match = (body: string): string => scope(without.length ? `(${body}) NOT (${orOf(without)})` : body);
  const floored = phrases.filter((p) => p.idf === FLOOR_IDF);
  const scored = phrases.filter((p) => p.idf !== FLOOR_IDF);
  if (scored.length === 0) return source.newest(match(orOf(phrases)), wanted, 4 * wanted);
  const split = splitCommon(scored, wanted);
  const rare = split?.rare ?? scored;
  const common = [...(split?.common ?? []), ...floored];
  if (common.length === 0) return source.top(match(orOf(phrases)), wanted, sumHits(phrases));
  const a = source.top(match(orOf(rare)), wanted, sumHits(rare));
  const b = source.top(match(`(${orOf(rare)}) AND (${orOf(common)})`), wanted, Math.min(sumHits(rare), sumHits(common)));
  const best = merge(a, b, wanted);
  // Rows of C alone score under this bound (the margin covers floating point).
  const bound = (K1 + 1) * common.reduce((s, p) => s + p.idf, 0) * (1 + 1e-9);
  if (best.length === wanted && -best[wanted - 1]!.rank > bound) return best;
  return merge(best, rankLevel(source, common, [...without, ...rare], scope, wanted), wanted);
}

/**
 * The most common phrases whose bm25 shares together likely stay under what the rarer phrases' best rows score, when
 * that spares enough scoring; undefined when no split is worth trying. A wrong guess costs time, never results.
 */
export function splitCommon(phrases: Phrase[], wanted: number): { rare: Phrase[]; common: Phrase[] } | undefined {
  const byHits = [...phrases].sort((x, y) => y.hits - x.hits);
  let cut: number | undefined;
  let commonIdf = 0;
  for (let k = 1; k < byHits.length; k++) {
    commonIdf += byHits[k - 1]!.idf;
    // One hit in the lightest column (weight 1) of a row of average length scores idf x 1.0, and a phrase's best rows
    // score more: the most common of the rarer phrases sets the likely threshold.
    if ((K1 + 1) * commonIdf < byHits[k]!.idf) cut = k;
  }
  if (cut === undefined) return undefined;
  const common = byHits.slice(0, cut);
  return sumHits(common) >= Math.max(MIN_SPLIT_ROWS, 4 * wanted) ? { rare: byHits.slice(cut), common } : undefined;
}

/** The best `wanted` of two ranked lists, a row in both counted once with its better (fuller) score. */
function merge<T extends RankedRow>(x: T[], y: T[], wanted: number): T[] {
  const byId = new Map<number, T>(x.map((r) => [r.id, r]));
  for (const r of y) if ((byId.get(r.id)?.rank ?? Infinity) > r.rank) byId.set(r.id, r);
  return [...byId.values()].sort((p, q) => p.rank - q.rank || p.id - q.id).slice(0, wanted);
}

function orOf(phrases: Phrase[]): string {
  return phrases.map((p) => p.fts).join(' OR ');
}

function sumHits(phrases: Phrase[]): number {
  return phrases.reduce((s, p) => s + p.hits, 0);
}
