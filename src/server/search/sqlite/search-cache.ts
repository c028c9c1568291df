import type { Statement } from 'better-sqlite3';
import type { Db } from '../../storage/db';
import { PhraseHits } from './phrase-hits';

/** Searches repeat a handful of statement shapes; past this many the cache starts over rather than grow. */
const MAX_STATEMENTS = 64;

/**
 * What one connection keeps between searches and index writes: prepared statements by SQL text, and the accounts
 * known to have a full-text table. Owned by whoever owns the connection (the service context for the writer, each
 * search worker for its reader) and dropped with it.
 */
export class SearchCache {
  /**
   * Accounts seen with a full-text table. Accounts are never deleted and their tables are created by committed
   * writes, so a table a reader once saw stays.
   */
  readonly indexedAccounts = new Set<number>();
  /** Document frequencies of the phrases searched, per account and version of its index (phrase-hits.ts). */
  readonly phraseHits = new PhraseHits();
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Db) {}

  statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      this.statements.set(sql, (statement = this.db.prepare(sql)));
    }
    return statement;
  }
}
