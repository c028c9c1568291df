import type { Statement } from 'better-sqlite3';

/** FTS5 column weights of every search's bm25: caption 3, transcript 2, on-screen text 3, labels 2.5, names 1. */
export const COLUMN_WEIGHTS = [3.0, 2.0, 3.0, 2.5, 1.0] as const;

/** What bm25 reads from one row for a set of phrases: each phrase's weighted count (its f) and the row's tokens (D). */
export interface RowFrequencies {
  freq: number[];
  length: number;
}

const MARK = '\u0001';

/**
 * Phrase frequencies of chosen rows read from FTS5's own instances through highlight(), which never counts a phrase's
 * rows over the whole table the way bm25 does (its idf): for a phrase in half of 1,000,000 rows that count is most of
 * a search. Instances of `base` and of `base AND phrase` are marked apart; their difference per column is the
 * phrase's count there, exact when the phrase's instances overlap neither base's nor its own (highlight joins
 * overlapping instances; the caller checks: see sharesCountable in ranked-match.ts). Markers already in the text
 * appear in both and cancel.
 */
export class PhraseFrequencies {
  private readonly marked: Statement;
  private readonly sizes: Statement;

  /** `prepare` may hand back a cached statement: these statements are only ever used here, in raw mode. */
  constructor(prepare: (sql: string) => Statement, table: string) {
    const columns = COLUMN_WEIGHTS.map((_, c) => `highlight(${table}, ${c}, char(1), '')`).join(', ');
    this.marked = prepare(
      `SELECT rowid, ${columns} FROM ${table} WHERE ${table} MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
    ).raw(true);
    this.sizes = prepare(`SELECT d.id, d.sz FROM json_each(?) j CROSS JOIN ${table}_docsize d ON d.id = j.value`).raw(
      true,
    );
  }

  /** For each id: the weighted counts of each `withPhrase[i]` expression's extra instances over `base`'s, and D. */
  read(base: string, withPhrase: string[], ids: number[]): Map<number, RowFrequencies> {
    const list = JSON.stringify(ids);
    const rows = new Map<number, RowFrequencies>();
    for (const [id, sz] of this.sizes.all(list) as [number, Uint8Array][])
      rows.set(id, { freq: withPhrase.map(() => 0), length: varints(sz).reduce((s, n) => s + n, 0) });
    const baseMarks = this.marks(base, list);
    withPhrase.forEach((expression, i) => {
      for (const [id, counts] of this.marks(expression, list)) {
        const row = rows.get(id);
        const before = baseMarks.get(id);
        if (!row || !before) throw new Error(`row ${id} matches ${expression} but not its base`);
        row.freq[i] = counts.reduce((f, n, c) => f + COLUMN_WEIGHTS[c]! * (n - before[c]!), 0);
      }
    });
    return rows;
  }

  private marks(match: string, list: string): Map<number, number[]> {
    const found = new Map<number, number[]>();
    for (const [id, ...texts] of this.marked.all(match, list) as [number, ...(string | null)[]][])
      found.set(
        id,
        texts.map((t) => (t ? t.split(MARK).length - 1 : 0)),
      );
    return found;
  }
}

/** The varints of a `_docsize` or averages record, in order (SQLite's varint: see segment-index.ts). */
export function varints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    let value = 0;
    for (let k = 0; ; k++) {
      const byte = bytes[i++];
      if (byte === undefined) throw new Error('truncated varint in a full-text record');
      if (k === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    out.push(value);
  }
  return out;
}
