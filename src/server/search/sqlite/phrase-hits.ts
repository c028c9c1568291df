/** Phrases remembered per account; past this many the account's counts start over rather than grow. */
const MAX_PHRASES = 50_000;

/**
 * How many rows of an account's full-text index contain each phrase (bm25's "documents containing the term"),
 * counted once per version of that index: a common word's count visits every one of its rows (15-25 ms for a word in
 * half of 1,000,000 segments), and searches ask the same common words again and again. The version is FTS5's own
 * state (the structure record, whose write counter moves with every flush, and the row and token totals), read by the
 * caller at the start of each search, so a count is never used once the index has changed.
 */
export class PhraseHits {
  private readonly accounts = new Map<number, { version: string; hits: Map<string, number> }>();

  /** The rows containing `match`, from memory when the account's index is still at `version`, else counted. */
  hits(accountId: number, version: string, match: string, count: () => number): number {
    let known = this.accounts.get(accountId);
    if (known?.version !== version || known.hits.size >= MAX_PHRASES) {
      known = { version, hits: new Map() };
      this.accounts.set(accountId, known);
    }
    let n = known.hits.get(match);
    if (n === undefined) known.hits.set(match, (n = count()));
    return n;
  }
}
