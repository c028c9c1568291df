import { ftsIdf } from '../ranking/ranked-match';

/**
 * FTS5's bm25 (fts5_aux.c, fts5Bm25Function) computed from PostgreSQL tsvectors, so a segment ranks and scores on
 * PostgreSQL as it does in SQLite's FTS5 tables:
 *   bm25 = -sum over phrases of idf x f x (k1 + 1) / (f + k1 x (1 - b + b x D / avgdl))
 * where f is the phrase's instances in the row, each weighted by its column's weight, D the row's word count (every
 * column), avgdl the account's average D, and idf FTS5's (ranked-match.ts `ftsIdf`, floored at 1e-6).
 */

const K1 = 1.2;
const B = 0.75;

/** bm25's column weights, in segment_search's column order: caption, transcript, on-screen text, labels, names. */
export const COLUMN_WEIGHTS = [3.0, 2.0, 3.0, 2.5, 1.0] as const;
export const COLUMNS = ['caption', 'transcript', 'ocr_text', 'labels', 'names'] as const;
export type Column = (typeof COLUMNS)[number];

/** One column of a row: each lexeme's positions. */
export type Positions = Map<string, number[]>;

const NO_POSITIONS: Positions = new Map();

/** A tsvector as PostgreSQL prints it (`'car':2 'red':1,3`) as lexeme -> positions (weights dropped). */
export function parseTsvector(text: string): Positions {
  // Most columns of a candidate hold none of the query's words: no map of their own.
  if (text === '') return NO_POSITIONS;
  const out: Positions = new Map();
  for (const m of text.matchAll(/'((?:[^']|'')*)'(?::([0-9A-D,]+))?/g)) {
    const lexeme = unquoteLexeme(m[1]!);
    const positions = (m[2] ?? '')
      .split(',')
      .filter(Boolean)
      .map((p) => Number.parseInt(p, 10));
    out.set(lexeme, positions);
  }
  return out;
}

/** A lexeme as a tsvector prints it between quotes, unescaped. */
export function unquoteLexeme(text: string): string {
  return text.includes("'") || text.includes('\\') ? text.replace(/''/g, "'").replace(/\\(.)/g, '$1') : text;
}

/** Where a phrase (its lexemes in order) occurs in one column: the number of positions it starts at. */
export function phraseCount(column: Positions, lexemes: readonly string[]): number {
  const first = column.get(lexemes[0] ?? '');
  if (!first) return 0;
  const rest = lexemes.slice(1).map((l) => new Set(column.get(l) ?? []));
  let n = 0;
  for (const p of first) if (rest.every((set, k) => set.has(p + k + 1))) n++;
  return n;
}

export interface Bm25Phrase {
  lexemes: readonly string[];
  /** Rows of the account the phrase is found in (in the searched column), as FTS5 counts them for idf. */
  hits: number;
}

export interface Bm25Row {
  /** The row's columns in COLUMNS order. */
  columns: readonly Positions[];
  /** Words in the row, every column. */
  tokens: number;
}

export interface Bm25Stats {
  rows: number;
  /** Words in every row of the account together. */
  tokens: number;
}

/** FTS5's bm25 of a row (negative, lower is better); `only` restricts instances to one column, like `col : (...)`. */
export function bm25(row: Bm25Row, phrases: readonly Bm25Phrase[], stats: Bm25Stats, only?: Column): number {
  return bm25Scorer(phrases, stats, only)(row);
}

/**
 * `bm25` for many rows against the same phrases: each row's columns are walked once, through the lexemes they hold (a
 * few: the candidates' columns carry the query's lexemes only), rather than once per phrase and column, so a query of
 * 64 phrases over 4,000 candidates costs 4,000 walks, not 1.3 million phrase counts. Same sums in the same order.
 */
export function bm25Scorer(phrases: readonly Bm25Phrase[], stats: Bm25Stats, only?: Column): (row: Bm25Row) => number {
  const sum = bm25OfInstances(phrases, stats);
  const byFirst = new Map<string, number[]>();
  phrases.forEach((p, k) => {
    const first = p.lexemes[0] ?? '';
    byFirst.set(first, [...(byFirst.get(first) ?? []), k]);
  });
  const f = new Float64Array(phrases.length);
  return (row) => {
    f.fill(0);
    row.columns.forEach((column, i) => {
      if (only !== undefined && COLUMNS[i] !== only) return;
      for (const [lexeme, positions] of column)
        for (const k of byFirst.get(lexeme) ?? []) {
          const lexemes = phrases[k]!.lexemes;
          f[k]! += COLUMN_WEIGHTS[i]! * (lexemes.length === 1 ? positions.length : phraseCount(column, lexemes));
        }
    });
    return sum(f, row.tokens);
  };
}

/**
 * bm25 of a row from each phrase's weighted instances in it (`f`, in phrase order) and its word count: what
 * `bm25Scorer` sums once it has counted them, and what a ranking from posting lists (pg-word-rank.ts) reads ready-made.
 */
export function bm25OfInstances(
  phrases: readonly Bm25Phrase[],
  stats: Bm25Stats,
): (f: Float64Array, tokens: number) => number {
  const avgdl = stats.rows > 0 ? stats.tokens / stats.rows : 0;
  const idfs = phrases.map((p) => ftsIdf(stats.rows, p.hits));
  return (f, tokens) => {
    const norm = K1 * (1 - B + (avgdl > 0 ? (B * tokens) / avgdl : 0));
    let score = 0;
    for (let k = 0; k < phrases.length; k++) {
      const fk = f[k]!;
      if (fk > 0) score += (idfs[k]! * (fk * (K1 + 1))) / (fk + norm);
    }
    return -score;
  };
}
