import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { Db } from '../../common/sqlite';
import { endedTransaction, outerInsideOwnTransaction, type RunResult, type Sql, type SqlParam } from './sql';

type Statement = Database.Statement<unknown[], unknown>;

const STATEMENT_CACHE = 512;

/**
 * The transaction the current async call chain runs in (to catch the outer Sql used inside it). Work scheduled inside
 * a transaction (a timer, a job queue's pump) inherits it and may run after it ended: `open` tells the two apart.
 */
const openTransaction = new AsyncLocalStorage<{ owner: SqliteSql; open: boolean }>();

/**
 * `Sql` on one better-sqlite3 connection. Statements run synchronously when no transaction is open, so their order is
 * the order they were issued. While a transaction is open (it may await between statements) every other statement and
 * transaction waits for it: one connection cannot keep them apart, and letting them in would commit or roll them back
 * with it.
 */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Statement>();
  /** Settles when the open transaction and the ones queued behind it have ended; null when none is open. */
  private busy: Promise<void> | null = null;

  constructor(readonly db: Db) {}

  all(sql: string, ...params: SqlParam[]): Promise<unknown[]> {
    return this.whenFree(() => this.prepared(sql).all(...bound(params)));
  }

  get(sql: string, ...params: SqlParam[]): Promise<unknown> {
    return this.whenFree(() => this.prepared(sql).get(...bound(params)));
  }

  run(sql: string, ...params: SqlParam[]): Promise<RunResult> {
    return this.whenFree(() => ({ changes: this.prepared(sql).run(...bound(params)).changes }));
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.insideOwnTransaction()) return Promise.reject(outerInsideOwnTransaction());
    const before = this.busy ?? Promise.resolve();
    const result = before.then(() => this.inTransaction(fn));
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.busy = settled;
    void settled.then(() => {
      if (this.busy === settled) this.busy = null;
    });
    return result;
  }

  /** The statement for `sql`, prepared once (dynamic WHERE clauses make a bounded set of texts). */
  prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE) {
        const oldest = this.statements.keys().next();
        if (!oldest.done) this.statements.delete(oldest.value);
      }
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private whenFree<T>(op: () => T): Promise<T> {
    if (this.insideOwnTransaction()) return Promise.reject(outerInsideOwnTransaction());
    if (this.busy) return this.busy.then(() => this.whenFree(op));
    try {
      return Promise.resolve(op());
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private async inTransaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    this.db.exec('BEGIN IMMEDIATE');
    const tx = new SqliteTransaction(this, null);
    const marker = { owner: this, open: true };
    try {
      const value = await openTransaction.run(marker, () => fn(tx));
      this.db.exec('COMMIT');
      return value;
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw err;
    } finally {
      marker.open = false;
      tx.end();
    }
  }

  private insideOwnTransaction(): boolean {
    const inside = openTransaction.getStore();
    return inside?.owner === this && inside.open;
  }
}

/** The open transaction's side of the connection: runs at once, nests as savepoints. */
class SqliteTransaction implements Sql {
  readonly dialect = 'sqlite' as const;
  private ended = false;

  constructor(
    private readonly owner: SqliteSql,
    private readonly parent: SqliteTransaction | null,
  ) {}

  all(sql: string, ...params: SqlParam[]): Promise<unknown[]> {
    return this.attempt(() => this.owner.prepared(sql).all(...bound(params)));
  }

  get(sql: string, ...params: SqlParam[]): Promise<unknown> {
    return this.attempt(() => this.owner.prepared(sql).get(...bound(params)));
  }

  run(sql: string, ...params: SqlParam[]): Promise<RunResult> {
    return this.attempt(() => ({ changes: this.owner.prepared(sql).run(...bound(params)).changes }));
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.hasEnded()) throw endedTransaction();
    const name = `sp${this.depth() + 1}`;
    this.owner.db.exec(`SAVEPOINT ${name}`);
    const inner = new SqliteTransaction(this.owner, this);
    try {
      const value = await fn(inner);
      this.owner.db.exec(`RELEASE ${name}`);
      return value;
    } catch (err) {
      this.owner.db.exec(`ROLLBACK TO ${name}`);
      this.owner.db.exec(`RELEASE ${name}`);
      throw err;
    } finally {
      inner.end();
    }
  }

  end(): void {
    this.ended = true;
  }

  /** A statement on a transaction that has ended would run outside it, or inside the next one. */
  private attempt<T>(op: () => T): Promise<T> {
    return this.hasEnded() ? Promise.reject(endedTransaction()) : attempt(op);
  }

  private hasEnded(): boolean {
    return this.ended || (this.parent?.hasEnded() ?? false);
  }

  private depth(): number {
    return this.parent ? this.parent.depth() + 1 : 0;
  }
}

function attempt<T>(op: () => T): Promise<T> {
  try {
    return Promise.resolve(op());
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/** better-sqlite3 binds Buffers, not other Uint8Array views. */
function bound(params: SqlParam[]): unknown[] {
  return params.map((p) =>
    p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p,
  );
}
