import { COLUMNS, type Positions } from './bm25';

/** The lexeme segment_search_rank's `terms` holds between columns (migration 18): no tokenized word is `|`. */
export const GAP = '|';

/** One candidate as `candidateText` reads it; `columns` is null when its gaps are not all there. */
export interface CandidateText {
  id: number;
  tokens: number;
  columns: Positions[] | null;
}

/**
 * Candidates as one text (pg-candidates.ts): a line per row, `id tokens terms`, terms being the row's filtered
 * tsvector as PostgreSQL prints it (`'car':2,5A '|':7,12`). Read in one pass without regular expressions: a row of
 * 4,000 candidates used to be one result row each (a row object and a regex match per lexeme), most of a short
 * query's time in Node. `exact(tokens)` says whether a row's positions are to be split into columns here.
 * Throws on text that is not in this shape.
 */
export function candidateText(text: string, exact: (tokens: number) => boolean): CandidateText[] {
  const out: CandidateText[] = [];
  const at = { i: 0 };
  while (at.i < text.length) {
    const id = integer(text, at);
    expect(text, at, ' ');
    const tokens = integer(text, at);
    expect(text, at, ' ');
    const entries: [string, number[]][] = [];
    let gaps: number[] = [];
    while (at.i < text.length && text[at.i] !== '\n') {
      const lexeme = quoted(text, at);
      const positions = text[at.i] === ':' ? (at.i++, positionList(text, at)) : [];
      if (lexeme === GAP) gaps = positions;
      else entries.push([lexeme, positions]);
      if (text[at.i] === ' ') at.i++;
    }
    if (at.i < text.length) at.i++;
    out.push({ id, tokens, columns: exact(tokens) ? columnsOf(entries, gaps) : null });
  }
  return out;
}

/** A row's entries as its columns' positions, by the gaps between them; null if the gaps are not all there. */
function columnsOf(entries: [string, number[]][], gaps: number[]): Positions[] | null {
  if (gaps.length !== COLUMNS.length - 1) return null;
  const columns: Positions[] = COLUMNS.map(() => NONE);
  for (const [lexeme, positions] of entries)
    for (const p of positions) {
      let column = 0;
      while (column < gaps.length && gaps[column]! < p) column++;
      // Most columns hold none of the query's words: a map is made only for one that does.
      if (columns[column] === NONE) columns[column] = new Map();
      const held = columns[column]!;
      const list = held.get(lexeme);
      if (list) list.push(p);
      else held.set(lexeme, [p]);
    }
  return columns;
}

const NONE: Positions = new Map();

function integer(text: string, at: { i: number }): number {
  const start = at.i;
  let n = 0;
  for (let c = text.charCodeAt(at.i); c >= 48 && c <= 57; c = text.charCodeAt(++at.i)) n = n * 10 + c - 48;
  if (at.i === start) throw new Error(`candidate rows: a number expected at ${start}`);
  return n;
}

function expect(text: string, at: { i: number }, char: string): void {
  if (text[at.i] !== char) throw new Error(`candidate rows: '${char}' expected at ${at.i}`);
  at.i++;
}

/** A lexeme between quotes, as tsvector prints it: '' for a quote, a backslash before a backslash. */
function quoted(text: string, at: { i: number }): string {
  expect(text, at, "'");
  let start = at.i;
  let out = '';
  for (;;) {
    const c = text[at.i];
    if (c === undefined) throw new Error('candidate rows: a lexeme without its closing quote');
    if (c === '\\') {
      out += text.slice(start, at.i) + (text[at.i + 1] ?? '');
      at.i += 2;
      start = at.i;
    } else if (c === "'" && text[at.i + 1] === "'") {
      out += text.slice(start, at.i + 1);
      at.i += 2;
      start = at.i;
    } else if (c === "'") {
      out += text.slice(start, at.i);
      at.i++;
      return out;
    } else at.i++;
  }
}

/** `1,5A,7` -> [1, 5, 7] (weights dropped), up to the space or line end after it. */
function positionList(text: string, at: { i: number }): number[] {
  const out: number[] = [];
  for (;;) {
    out.push(integer(text, at));
    const c = text.charCodeAt(at.i);
    if (c >= 65 && c <= 68) at.i++; // weight A-D
    if (text[at.i] !== ',') return out;
    at.i++;
  }
}
