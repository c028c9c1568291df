/**
 * The service's one way to its database, on either engine: SQLite (the embedded default, better-sqlite3) or
 * PostgreSQL (the team server). Statements use `?` placeholders; each adapter turns them into what its engine reads.
 * Rows come back as `unknown`: every store parses them with its table's zod row schema (storage/rows.ts).
 *
 * Write SQL that both engines read (docs/architecture.md "Two SQL engines"); where they differ, branch on `dialect`.
 */
export type SqlDialect = 'sqlite' | 'postgres';

export type SqlParam = string | number | null | Uint8Array;

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

export interface Sql {
  readonly dialect: SqlDialect;
  all(sql: string, ...params: SqlParam[]): Promise<unknown[]>;
  /** The first row, or undefined. */
  get(sql: string, ...params: SqlParam[]): Promise<unknown>;
  run(sql: string, ...params: SqlParam[]): Promise<RunResult>;
  /**
   * Runs `fn` in one transaction on `tx`, committed when `fn` resolves and rolled back when it throws. Use `tx` (not
   * the outer Sql) inside: on SQLite every other statement waits until the transaction ends, on PostgreSQL it runs on
   * another connection. A transaction inside a transaction is a savepoint.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

/** Both adapters refuse the outer Sql inside its own transaction (on SQLite it would wait for itself). */
export function outerInsideOwnTransaction(): Error {
  return new Error('a statement on the outer Sql inside its own transaction: use the tx argument');
}

/** A statement on a transaction that has ended would run outside it, or inside someone else's. */
export function endedTransaction(): Error {
  return new Error('a statement on a transaction that has already ended: await it inside fn');
}
