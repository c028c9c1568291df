import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { numberPlaceholders } from './pg-placeholders';
import { endedTransaction, outerInsideOwnTransaction, type RunResult, type Sql, type SqlParam } from './sql';

type Row = Record<string, unknown>;
type Translation = { text: string; count: number; name?: string };

const TRANSLATION_CACHE = 512;
/** The most statements one connection keeps prepared; past them a marked statement runs unnamed (planned each time). */
const PREPARED_PER_CONNECTION = 64;
/** What `prepared` puts before a statement's text (a comment, so the text means the same to either engine). */
const PREPARED_MARK = '/* prepared */ ';
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * The transaction the current async call chain runs in (to catch the outer Sql used inside it). Work scheduled inside
 * a transaction (a timer, a job queue's pump) inherits it and may run after it ended: `open` tells the two apart.
 */
const openTransaction = new AsyncLocalStorage<{ owner: PgSql; open: boolean }>();

/**
 * Marks a statement to run as a named prepared statement on each PostgreSQL connection: parsed and planned once there,
 * then only bound and executed (PostgreSQL plans it again for each run's values until a generic plan costs no more).
 * For statements of a fixed shape that run often with small, index-driven plans, whose planning is a large part of
 * their time (a search's word counts: 0.6 ms of planning, 0.5 ms executing). Any other engine reads the mark as a
 * comment.
 */
export function prepared(sql: string): string {
  return PREPARED_MARK + sql;
}

/** PostgreSQL could not be reached, refused the login, or dropped the connection. Names host:port, never the password. */
export class PgConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PgConnectionError';
  }
}

export interface PgSqlOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /** Give up waiting for a connection (a new one, or a free one of the pool) after this long (default 10 s). */
  connectionTimeoutMillis?: number;
  /**
   * What pg_stat_activity shows for these connections (default "reelsync PID", this process's id, so an operator
   * tells the replicas apart); PGAPPNAME, and over it an application_name in the URL, win.
   */
  applicationName?: string;
  /** Close a connection idle this long (default 10 s; 0 keeps it open). */
  idleTimeoutMillis?: number;
}

/**
 * `Sql` on a pool of PostgreSQL connections. A statement outside a transaction runs on any free connection; a
 * transaction holds one connection from BEGIN to COMMIT/ROLLBACK, so two transactions run side by side.
 * BIGINT and NUMERIC come back as JS numbers (an integer beyond 2^53 fails the query instead of losing digits),
 * BYTEA as Buffer; these parsers belong to this pool only (pg's global type table is left alone).
 */
export class PgSql implements Sql {
  readonly dialect = 'postgres' as const;
  /** host:port (or the socket folder) for error messages. */
  readonly where: string;
  private readonly pool: pg.Pool;
  private readonly password: string;
  private readonly translations = new Map<string, Translation>();
  /** The names of the statements each connection has prepared. */
  private readonly preparedOn = new WeakMap<pg.PoolClient, Set<string>>();

  constructor(url: string, options: PgSqlOptions = {}) {
    const parsed = parseUrl(url);
    this.where = describeServer(parsed);
    this.password = decoded(parsed.password);
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
      application_name: options.applicationName ?? process.env.PGAPPNAME ?? `reelsync ${process.pid}`,
      idleTimeoutMillis: options.idleTimeoutMillis ?? 10_000,
      types: { getTypeParser },
    });
    // An idle connection the server drops emits here; the pool discards it and the next query opens a new one.
    this.pool.on('error', () => undefined);
  }

  all(sql: string, ...params: SqlParam[]): Promise<unknown[]> {
    return this.outside((client) => this.query(client, sql, params)).then((r) => r.rows);
  }

  get(sql: string, ...params: SqlParam[]): Promise<unknown> {
    return this.outside((client) => this.query(client, sql, params)).then((r) => r.rows[0]);
  }

  run(sql: string, ...params: SqlParam[]): Promise<RunResult> {
    return this.outside((client) => this.query(client, sql, params)).then((r) => ({ changes: r.rowCount ?? 0 }));
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    refuseInsideOwnTransaction(this);
    const { client, release } = await this.checkout();
    let healthy = true;
    const tx = new PgTransaction(this, client, null);
    const marker = { owner: this, open: true };
    try {
      await this.query(client, 'BEGIN', []);
      const value = await openTransaction.run(marker, () => fn(tx));
      await this.query(client, 'COMMIT', []);
      return value;
    } catch (err) {
      healthy = await this.quietly(client, 'ROLLBACK');
      throw err;
    } finally {
      marker.open = false;
      tx.end();
      release(healthy);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Runs one statement on `client`, numbering its `?` placeholders. */
  async query(client: pg.PoolClient, sql: string, params: SqlParam[]): Promise<pg.QueryResult<Row>> {
    const { text, count, name } = this.translated(sql);
    if (count !== params.length) {
      throw new Error(`statement has ${count} placeholder(s) but ${params.length} value(s): ${sql.slice(0, 200)}`);
    }
    try {
      const values = params.map(bound);
      return await client.query<Row>(name && this.mayPrepare(client, name) ? { name, text, values } : { text, values });
    } catch (err) {
      throw this.connectionError(err, 'lost the connection to') ?? err;
    }
  }

  /** Runs `sql` ignoring its error; false when it failed (the connection is then not fit to reuse). */
  async quietly(client: pg.PoolClient, sql: string): Promise<boolean> {
    try {
      await client.query(sql);
      return true;
    } catch {
      return false;
    }
  }

  private async outside<T>(op: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    refuseInsideOwnTransaction(this);
    const { client, release } = await this.checkout();
    let healthy = true;
    try {
      return await op(client);
    } catch (err) {
      if (err instanceof PgConnectionError) healthy = false;
      throw err;
    } finally {
      release(healthy);
    }
  }

  /**
   * A connection of the pool, and how to give it back: destroyed rather than returned when it failed. While checked
   * out, an error the connection emits (server gone) fails its queries instead of crashing the process.
   */
  private async checkout(): Promise<{ client: pg.PoolClient; release: (healthy: boolean) => void }> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw this.connectionError(err, 'cannot connect to', true) ?? err;
    }
    let broken = false;
    const onError = (): void => {
      broken = true;
    };
    client.on('error', onError);
    return {
      client,
      release: (healthy) => {
        client.off('error', onError);
        client.release(!healthy || broken);
      },
    };
  }

  /** The statement with numbered placeholders, and its name when `prepared` marked it. */
  private translated(sql: string): Translation {
    let t = this.translations.get(sql);
    if (!t) {
      t = numberPlaceholders(sql);
      if (sql.startsWith(PREPARED_MARK))
        t.name = `reelsync_${createHash('sha256').update(t.text).digest('hex').slice(0, 32)}`;
      if (this.translations.size >= TRANSLATION_CACHE) {
        const oldest = this.translations.keys().next();
        if (!oldest.done) this.translations.delete(oldest.value);
      }
      this.translations.set(sql, t);
    }
    return t;
  }

  /** Whether `client` has prepared `name`, or has room to. */
  private mayPrepare(client: pg.PoolClient, name: string): boolean {
    let names = this.preparedOn.get(client);
    if (!names) this.preparedOn.set(client, (names = new Set()));
    if (names.has(name)) return true;
    if (names.size >= PREPARED_PER_CONNECTION) return false;
    names.add(name);
    return true;
  }

  /** A PgConnectionError for an error of the connection itself (every error when `always`), else undefined. */
  private connectionError(err: unknown, doing: string, always = false): PgConnectionError | undefined {
    const e = err instanceof Error ? err : new Error(String(err));
    if (!always && !isConnectionLoss(e)) return undefined;
    const message = this.password ? e.message.split(this.password).join('***') : e.message;
    return new PgConnectionError(`${doing} PostgreSQL at ${this.where}: ${message}`);
  }
}

/** The open transaction's side of its connection: statements run on it in order, nested transactions are savepoints. */
class PgTransaction implements Sql {
  readonly dialect = 'postgres' as const;
  private ended = false;
  private savepoints = 0;

  constructor(
    private readonly owner: PgSql,
    private readonly client: pg.PoolClient,
    private readonly parent: PgTransaction | null,
  ) {}

  all(sql: string, ...params: SqlParam[]): Promise<unknown[]> {
    return this.statement(sql, params).then((r) => r.rows);
  }

  get(sql: string, ...params: SqlParam[]): Promise<unknown> {
    return this.statement(sql, params).then((r) => r.rows[0]);
  }

  run(sql: string, ...params: SqlParam[]): Promise<RunResult> {
    return this.statement(sql, params).then((r) => ({ changes: r.rowCount ?? 0 }));
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.hasEnded()) throw endedTransaction();
    const name = `sp${this.root().savepoints++}`;
    const inner = new PgTransaction(this.owner, this.client, this);
    await this.owner.query(this.client, `SAVEPOINT ${name}`, []);
    try {
      const value = await fn(inner);
      await this.owner.query(this.client, `RELEASE SAVEPOINT ${name}`, []);
      return value;
    } catch (err) {
      // If this fails the connection is gone: the outer transaction's ROLLBACK fails too and discards it.
      await this.owner.quietly(this.client, `ROLLBACK TO SAVEPOINT ${name}`);
      await this.owner.quietly(this.client, `RELEASE SAVEPOINT ${name}`);
      throw err;
    } finally {
      inner.end();
    }
  }

  end(): void {
    this.ended = true;
  }

  private statement(sql: string, params: SqlParam[]): Promise<pg.QueryResult<Row>> {
    if (this.hasEnded()) return Promise.reject(endedTransaction());
    return this.owner.query(this.client, sql, params);
  }

  private hasEnded(): boolean {
    return this.ended || (this.parent?.hasEnded() ?? false);
  }

  private root(): PgTransaction {
    return this.parent ? this.parent.root() : this;
  }
}

function refuseInsideOwnTransaction(sql: PgSql): void {
  const inside = openTransaction.getStore();
  if (inside?.owner === sql && inside.open) {
    throw outerInsideOwnTransaction();
  }
}

/** int8 and numeric as numbers, refusing integers a double cannot hold; every other type as pg parses it. */
function getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (format !== 'binary' && (oid === INT8_OID || oid === NUMERIC_OID)) return toNumber;
  return pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
}

function toNumber(text: string): number {
  const n = Number(text);
  if (/^-?\d+$/.test(text) && !Number.isSafeInteger(n)) {
    throw new RangeError(`integer ${text} is beyond 2^53: a JS number cannot hold it exactly`);
  }
  return n;
}

/** pg sends Buffers as bytea; other Uint8Array views become Buffers over the same bytes. */
function bound(p: SqlParam): unknown {
  return p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p;
}

/** The URL without echoing it: it may hold a password. */
function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new Error('the PostgreSQL URL is not a URL: expected postgres://user[:password]@host[:port]/database');
  }
}

/** The password as pg will send it (a malformed %-escape stays as written, which pg then refuses). */
function decoded(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}

function describeServer(url: URL): string {
  const host = url.searchParams.get('host') || url.hostname || 'localhost';
  const port = url.port || url.searchParams.get('port') || '5432';
  return `${host}:${port}`;
}

/** Errors of the connection rather than of the statement (SQLSTATE class 08, server shutdown, socket errors). */
function isConnectionLoss(err: Error): boolean {
  const code = 'code' in err && typeof err.code === 'string' ? err.code : '';
  return (
    code.startsWith('08') ||
    ['57P01', '57P02', '57P03', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code) ||
    /Connection terminated|Client has encountered a connection error/.test(err.message)
  );
}
