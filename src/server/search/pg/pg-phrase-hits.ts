import { z } from 'zod';
import { prepared } from '../../storage/pg-sql';
import type { Sql } from '../../storage/sql';
import type { SearchField } from '../segment-types';
import type { Bm25Stats } from './bm25';
import { porterStem } from './porter';
import { textArray } from './pg-array-literals';
import type { PostingPrefetch } from './pg-word-rank';

/** segment_search_terms' count of a search's field: rows holding the word in any column, or in the one searched. */
const TERM_COUNTS: Record<SearchField, string> = { all: 'in_any', caption: 'in_caption', transcript: 'in_transcript' };

const totalsRow = z.object({ segments: z.number(), tokens: z.number() });
const termRow = z.object({
  lexeme: z.string(),
  n: z.number(),
  tokens: z.number(),
  ids: z.string().nullable(),
  list_tokens: z.string().nullable(),
  counts: z.string().nullable(),
});

/** The account's indexed segments and their words together (migration 16 keeps them), as bm25 reads them. */
export async function accountTotals(sql: Sql, accountId: number): Promise<Bm25Stats> {
  const found = await sql.get('SELECT segments, tokens FROM segment_search_totals WHERE account_id = ?', accountId);
  if (found === undefined) return { rows: 0, tokens: 0 };
  const { segments, tokens } = totalsRow.parse(found);
  return { rows: segments, tokens };
}

/**
 * How many of an account's segments each phrase is found in (inside one column; for a caption or transcript search,
 * inside that column), as FTS5 counts a phrase's rows for its idf. A single word is read from segment_search_terms
 * (migration 16: exact, one index lookup for all of a query's words however many rows hold them); a phrase of
 * several words is counted by `countPhrase` (through the GIN index) unless one of its words is in no row. Load
 * phrases first, then read them with `of`.
 */
export class PhraseHits {
  private readonly known = new Map<string, number>();
  private account?: Bm25Stats;

  constructor(
    private readonly sql: Sql,
    private readonly accountId: number,
    private readonly field: SearchField,
    private readonly countPhrase: (words: string[]) => Promise<number>,
  ) {}

  /**
   * Loads phrases (and, on the first call, the account's totals, in the same round trip, and the posting lists
   * `prefetch` asks for, when they are within its budget).
   */
  async load(phrases: readonly string[][], prefetch?: PostingPrefetch): Promise<void> {
    const fresh = phrases.filter((words) => !this.known.has(key(words)));
    const words = [...new Set(fresh.flat())].filter((word) => !this.known.has(word));
    if (words.length || !this.account) {
      const count = TERM_COUNTS[this.field];
      const lists = !this.account && prefetch ? prefetch.lateral('t.lexeme', count) : undefined;
      const listColumns = lists
        ? 'l.ids, l.tokens AS list_tokens, l.counts'
        : 'NULL AS ids, NULL AS list_tokens, NULL AS counts';
      // The totals come as a row of lexeme '' (no word is empty): segments as n, beside its tokens.
      const totals = this.account
        ? ''
        : `SELECT '' AS lexeme, segments AS n, tokens, NULL AS ids, NULL AS list_tokens, NULL AS counts
           FROM segment_search_totals WHERE account_id = ? UNION ALL `;
      const rows = z.array(termRow).parse(
        // Prepared: planning this statement took longer than running it (0.6 vs 0.5 ms for the 993-character
        // attack on a 200-segment account), and its shapes are few.
        await this.sql.all(
          prepared(`${totals}SELECT t.lexeme, t.${count} AS n, 0 AS tokens, ${listColumns} FROM segment_search_terms t
           ${lists ? `LEFT JOIN LATERAL (${lists.sql}) l ON TRUE` : ''}
           WHERE t.account_id = ? AND t.lexeme = ANY(CAST(? AS TEXT[]))`),
          ...(this.account ? [] : [this.accountId]),
          ...(lists?.args ?? []),
          this.accountId,
          textArray(words.map(porterStem)),
        ),
      );
      if (!this.account) {
        const found = rows.find((r) => r.lexeme === '');
        this.account = { rows: found?.n ?? 0, tokens: found?.tokens ?? 0 };
      }
      const terms = rows.filter((r) => r.lexeme !== '');
      if (lists) prefetch?.take(terms.map((r) => ({ ...r, tokens: r.list_tokens })));
      const byLexeme = new Map(terms.map((r) => [r.lexeme, r.n]));
      for (const word of words) this.known.set(word, byLexeme.get(porterStem(word)) ?? 0);
    }
    // A phrase is in no more rows than its rarest word: one with a word in no row needs no count.
    for (const phrase of fresh)
      if (!this.known.has(key(phrase)))
        this.known.set(key(phrase), phrase.some((w) => this.of([w]) === 0) ? 0 : await this.countPhrase(phrase));
  }

  /** The account's segments and words (bm25's N and average length), read by the first `load`. */
  totals(): Bm25Stats {
    if (!this.account) throw new Error('phrase hits: the totals were not loaded');
    return this.account;
  }

  /** A loaded phrase's rows. */
  of(words: readonly string[]): number {
    const hits = this.known.get(key(words));
    if (hits === undefined) throw new Error(`phrase hits: "${key(words)}" was not loaded`);
    return hits;
  }
}

function key(words: readonly string[]): string {
  return words.join(' ');
}
