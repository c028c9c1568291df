import type { RowFrequencies } from '../sqlite/phrase-frequencies';

/**
 * The most matching rows one ranking scores (below): a search over words found in more of the account's
 * segments ranks the newest this many of them, so its time stays bounded however large the library grows.
 */
export const MAX_RANKED_ROWS = 4_000;

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
 * Every row returned carries the bm25 the plain OR query gives it, and the rows are the plain query's best, with two
 * exceptions that bound a search's work on a large library:
 * - rows matched only by words in half the rows or more (bm25 ~1e-6, which the calibrated score rounds to 0: all
 *   tied) are taken from the newest matching rows, ranked by bm25 among themselves, rather than from all;
 * - a ranking that would score more than the source's `maxRanked` rows (a word in more of the account's segments than
 *   that, or several common words together) scores the newest `maxRanked` of them instead.
 * Each phrase's `hits` is exact (the source may remember it while its index is unchanged), so its idf is FTS5's own
 * and the pruning bound is tight: a common word's rows are ranked only when they can reach the best.
 */

/** FTS5's bm25 constants k1 and b: one phrase adds less than idf x (k1 + 1) to a row's score. */
export const K1 = 1.2;
const B = 0.75;

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
  /** The most rows one ranking scores; a larger set of matches is ranked among its newest this many. */
  maxRanked: number;
  /** Rows matching an expression, counted up to `cap`. */
  count(match: string, cap: number): number;
  /** Rows containing one phrase (bm25's n), exactly. */
  hits(match: string): number;
  /** The best `wanted` rows for an expression, best first, exactly (filters applied); `matching` bounds its rows. */
  top(match: string, wanted: number, matching: number): T[];
  /** The best `wanted` rows by bm25 among the newest `window` rows matching an expression (filters applied). */
  newest(match: string, wanted: number, window: number): T[];
  /**
   * Optional: bm25's f and D for chosen rows without counting any phrase's rows (phrase-frequencies.ts), so common
   * phrases in `minHits` rows or more together are scored here rather than by FTS5's bm25, which counts them.
   */
  frequencies?: {
    minHits: number;
    /** bm25's avgdl: tokens per row over the index. */
    averageLength: number;
    read(base: string, withPhrase: string[], ids: number[]): Map<number, RowFrequencies>;
  };
}

/** bm25's idf in FTS5: log((N - n + 0.5) / (n + 0.5)), floored at 1e-6 for words in half the rows or more. */
export function ftsIdf(rows: number, hits: number): number {
  const idf = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return idf <= 0 ? FLOOR_IDF : idf;
}

/** A phrase's rows (bm25's n) and its idf, what the splits read. */
export interface PhraseCounts {
  hits: number;
  idf: number;
}

export interface Phrase extends PhraseCounts {
  fts: string;
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
    const hits = source.hits(scope(fts));
    // A phrase no row contains adds nothing to any row's bm25: leave it out of the query.
    if (hits > 0) live.push({ fts, hits, idf: ftsIdf(source.rows, hits) });
  }
  return live.length ? rankLevel(source, live, [], scope, wanted) : [];
}

/** The best rows matching any of `phrases` and none of `without`. */
function rankLevel<T extends RankedRow>(
  source: RankedSource<T>,
  phrases: Phrase[],
  without: Phrase[],
  scope: (body: string) => string,
  wanted: number,
): T[] {
  const match = (body: string): string => scope(without.length ? `(${body}) NOT (${orOf(without)})` : body);
  const floored = phrases.filter((p) => p.idf === FLOOR_IDF);
  const scored = phrases.filter((p) => p.idf !== FLOOR_IDF);
  if (scored.length === 0) return source.newest(match(orOf(phrases)), wanted, 4 * wanted);
  // The best rows of an expression whose matches are at most `matching`, or of its newest maxRanked when more.
  const best = (expression: string, matching: number): T[] =>
    matching > source.maxRanked
      ? source.newest(match(expression), wanted, source.maxRanked)
      : source.top(match(expression), wanted, matching);
  const split = splitCommon(scored, wanted) ?? splitMany(scored, source.maxRanked);
  const rare = split?.rare ?? scored;
  const common = [...(split?.common ?? []), ...floored];
  if (common.length === 0) return best(orOf(phrases), sumHits(phrases));
  // Rows of C alone score under this bound, and C adds at most this to a row of E (the margin covers floating point).
  const bound = (K1 + 1) * common.reduce((s, p) => s + p.idf, 0) * (1 + 1e-9);
  // With C's shares read from frequencies, E's best are read twice as deep: the rows C may lift come from there.
  const shares = sharesReadable(source, rare, common);
  const deep = shares ? source.top(match(orOf(rare)), 2 * wanted, sumHits(rare)) : undefined;
  const a = deep?.slice(0, wanted) ?? best(orOf(rare), sumHits(rare));
  const b =
    (deep && withCommonShares(source, rare, common, deep, match, wanted, bound)) ??
    best(`(${orOf(rare)}) AND (${orOf(common)})`, Math.min(sumHits(rare), sumHits(common)));
  const found = merge(a, b, wanted);
  if (found.length === wanted && -found[wanted - 1]!.rank > bound) return found;
  return merge(found, rankLevel(source, common, [...without, ...rare], scope, wanted), wanted);
}

/**
 * Whether C's bm25 shares in E's rows are read from phrase frequencies rather than by FTS5's bm25 over E AND C: where
 * C's rows are many (FTS5 would count them all for C's idf), E's rows are ranked exactly (no window), and the
 * frequencies can be read exactly.
 */
function sharesReadable<T extends RankedRow>(source: RankedSource<T>, rare: Phrase[], common: Phrase[]): boolean {
  const frequencies = source.frequencies;
  return (
    frequencies !== undefined &&
    sumHits(common) >= frequencies.minHits &&
    sumHits(rare) <= source.maxRanked &&
    sharesCountable(rare, common)
  );
}

/**
 * B without FTS5 counting C's rows: E's rows that can reach the best (E's best `wanted`, and any other within C's
 * bound of the last of them), each with C's bm25 shares added from its phrase frequencies. Exact: a row of E further
 * down scores less than E's `wanted`-th best even with every C phrase. `deep` is E's best 2 x `wanted` rows;
 * undefined when more than those are within reach.
 */
function withCommonShares<T extends RankedRow>(
  source: RankedSource<T>,
  rare: Phrase[],
  common: Phrase[],
  deep: T[],
  match: (body: string) => string,
  wanted: number,
  bound: number,
): T[] | undefined {
  const frequencies = source.frequencies;
  if (!frequencies) return undefined;
  let candidates = deep;
  if (deep.length >= wanted) {
    const floor = -deep[wanted - 1]!.rank - bound;
    if (deep.length === 2 * wanted && -deep[deep.length - 1]!.rank >= floor) return undefined;
    candidates = deep.filter((r) => -r.rank >= floor);
  }
  if (candidates.length === 0) return [];
  const base = orOf(rare);
  const rows = frequencies.read(
    match(base),
    common.map((p) => match(`(${base}) AND (${p.fts})`)),
    candidates.map((r) => r.id),
  );
  return candidates.map((r) => {
    const row = rows.get(r.id);
    if (!row) throw new Error(`no length for row ${r.id}`);
    // bm25 as FTS5 computes it (fts5Bm25Function), phrase by phrase after E's shares.
    let rank = r.rank;
    common.forEach((p, i) => {
      const f = row.freq[i]!;
      rank -= p.idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * row.length) / frequencies.averageLength)));
    });
    return { ...r, rank };
  });
}

/** Folded words of a phrase, for telling whether two phrases may share a token (see sharesCountable). */
function phraseWords(fts: string): string[] {
  return (
    fts
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []
  );
}

/**
 * Whether two words may be one token after FTS5's porter stemmer, which rewrites only a word's end: a stem keeps at
 * least its word's first two letters, or its first one for a word of three letters or fewer ("ies" -> "i").
 */
function mayShareToken(x: string, y: string): boolean {
  return x.slice(0, 2) === y.slice(0, 2) || (x[0] === y[0] && Math.min(x.length, y.length) <= 3);
}

/**
 * Whether each common phrase's instances can be told apart from the rare phrases' and its own: no two words that
 * may be one token in a common phrase and a rare one, or twice in one common phrase.
 */
export function sharesCountable(rare: Phrase[], common: Phrase[]): boolean {
  const rareWords = rare.flatMap((p) => phraseWords(p.fts));
  return common.every((p) => {
    const words = phraseWords(p.fts);
    return words.every(
      (w, i) => !rareWords.some((r) => mayShareToken(w, r)) && !words.some((o, j) => j !== i && mayShareToken(w, o)),
    );
  });
}

/**
 * The most common phrases whose bm25 shares together likely stay under what the rarer phrases' best rows score, when
 * that spares enough scoring; undefined when no split is worth trying. A wrong guess costs time, never results.
 */
export function splitCommon<P extends PhraseCounts>(
  phrases: P[],
  wanted: number,
): { rare: P[]; common: P[] } | undefined {
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

/**
 * Phrases in more rows than one ranking scores, apart from the others, so that the others' rows are still ranked
 * exactly and only the rows the many-row phrases alone match are ranked in a window. Undefined unless both exist.
 */
export function splitMany<P extends PhraseCounts>(
  phrases: P[],
  maxRanked: number,
): { rare: P[]; common: P[] } | undefined {
  const common = phrases.filter((p) => p.hits > maxRanked);
  const rare = phrases.filter((p) => p.hits <= maxRanked);
  return common.length && rare.length && sumHits(phrases) > maxRanked ? { rare, common } : undefined;
}

/** The best `wanted` of two ranked lists, a row in both counted once with its better (fuller) score. */
export function merge<T extends RankedRow>(x: T[], y: T[], wanted: number): T[] {
  const byId = new Map<number, T>(x.map((r) => [r.id, r]));
  for (const r of y) if ((byId.get(r.id)?.rank ?? Infinity) > r.rank) byId.set(r.id, r);
  return [...byId.values()].sort((p, q) => p.rank - q.rank || p.id - q.id).slice(0, wanted);
}

function orOf(phrases: Phrase[]): string {
  return phrases.map((p) => p.fts).join(' OR ');
}

export function sumHits(phrases: PhraseCounts[]): number {
  return phrases.reduce((s, p) => s + p.hits, 0);
}
