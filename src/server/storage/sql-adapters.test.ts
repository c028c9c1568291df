import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freePort, skipPostgresTests, startPostgres, type TestPostgres } from '../../../test/helpers/postgres';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { tempDir } from '../../../test/helpers/temp';
import { openSqlite, type Db } from '../../common/sqlite';
import { numberPlaceholders } from './pg-placeholders';
import { PgConnectionError, PgSql } from './pg-sql';
import type { Sql } from './sql';
import { SqliteSql } from './sqlite-sql';

const nums = (rows: unknown[]): number[] => rows.map((r) => z.object({ n: z.number() }).parse(r).n);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let server: TestPostgres | undefined;
beforeAll(async () => {
  if (!skipPostgresTests) server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

function pgServer(): TestPostgres {
  if (!server) throw new Error('PostgreSQL is not running');
  return server;
}

interface Opened {
  sql: Sql;
  close: () => Promise<void>;
}

/** Each engine opens a fresh database with one table t (n unique integer, b blob). */
const engines: { name: string; skip: boolean; open: () => Promise<Opened> }[] = [
  {
    name: 'SQLite',
    skip: false,
    open: async () => {
      const t = await tempDir();
      const db: Db = openSqlite(join(t.dir, 'a.db'), [
        { version: 1, name: 't', up: 'CREATE TABLE t (n INTEGER NOT NULL UNIQUE, b BLOB)' },
      ]);
      return {
        sql: new SqliteSql(db),
        close: async () => {
          db.close();
          await t.cleanup();
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: skipPostgresTests,
    open: async () => {
      const sql = new PgSql(await pgServer().createDatabase());
      await sql.run('CREATE TABLE t (n BIGINT NOT NULL UNIQUE, b BYTEA)');
      return { sql, close: () => sql.close() };
    },
  },
];

describe.each(engines)('Sql on $name', (engine) => {
  let sql: Sql;
  let close: () => Promise<void>;

  beforeEach(async () => {
    if (engine.skip) return;
    ({ sql, close } = await engine.open());
  });
  afterEach(async () => {
    if (!engine.skip) await close();
  });

  describe.skipIf(engine.skip)('conformance', () => {
    it('runs, reads and counts changes; binds Uint8Array views as blobs; RETURNING gives the row', async () => {
      const f = new Float32Array([0, 1.5]);
      expect((await sql.run('INSERT INTO t (n, b) VALUES (?, ?)', 1, new Uint8Array(f.buffer, 4, 4))).changes).toBe(1);
      expect((await sql.run('INSERT INTO t (n) VALUES (?) ON CONFLICT DO NOTHING', 1)).changes).toBe(0);
      expect(await sql.get('SELECT n FROM t WHERE n = ?', 2)).toBeUndefined();
      const row = z.object({ b: z.instanceof(Buffer) }).parse(await sql.get('SELECT b FROM t WHERE n = 1'));
      expect(row.b.length).toBe(4);
      expect(row.b.readFloatLE(0)).toBe(1.5);
      expect(await sql.get('INSERT INTO t (n) VALUES (?) RETURNING n', 5)).toEqual({ n: 5 });
      expect((await sql.run('UPDATE t SET b = NULL WHERE n >= ?', 0)).changes).toBe(2);
    });

    it('gives counts and sums as numbers, and reads a ? inside a string literal as text', async () => {
      for (const n of [3, 4, 5]) await sql.run('INSERT INTO t (n) VALUES (?)', n);
      expect(await sql.get('SELECT COUNT(*) AS c, SUM(n) AS s, MAX(n) AS m FROM t')).toEqual({ c: 3, s: 12, m: 5 });
      expect(await sql.get("SELECT ? AS a, '?' AS q FROM t WHERE n = ?", 'x', 4)).toEqual({ a: 'x', q: '?' });
    });

    it('reads the same from the portable forms of parameters PostgreSQL cannot type alone', async () => {
      await sql.run('INSERT INTO t (n) VALUES (2)');
      // `? IS NULL`, `n * ?` with a fraction and a bare `SELECT ?` fail or answer text on PostgreSQL; CAST says the type.
      expect(
        await sql.get(
          'SELECT n * CAST(? AS DOUBLE PRECISION) AS half, CAST(? AS BIGINT) AS bare FROM t WHERE CAST(? AS TEXT) IS NULL',
          0.5,
          7,
          null,
        ),
      ).toEqual({ half: 1, bare: 7 });
    });

    it('fails a statement given the wrong number of values', async () => {
      await expect(sql.run('INSERT INTO t (n) VALUES (?)')).rejects.toThrow();
      await expect(sql.run('INSERT INTO t (n) VALUES (?)', 1, 2)).rejects.toThrow();
      expect(await sql.all('SELECT n FROM t')).toEqual([]);
    });

    it('commits a transaction that awaits between statements; a statement outside never sees half of it', async () => {
      const tx = sql.transaction(async (t) => {
        await t.run('INSERT INTO t (n) VALUES (1)');
        await sleep(20);
        expect(nums(await t.all('SELECT n FROM t'))).toEqual([1]);
        await t.run('INSERT INTO t (n) VALUES (2)');
        return 'done';
      });
      const outside = sql.all('SELECT n FROM t ORDER BY n');
      const [value, seen] = await Promise.all([tx, outside]);
      expect(value).toBe('done');
      expect([[], [1, 2]]).toContainEqual(nums(seen));
      expect(nums(await sql.all('SELECT n FROM t ORDER BY n'))).toEqual([1, 2]);
    });

    it('rolls back a transaction that throws, and the next one runs', async () => {
      await expect(
        sql.transaction(async (t) => {
          await t.run('INSERT INTO t (n) VALUES (1)');
          await t.run('INSERT INTO t (n) VALUES (1)');
        }),
      ).rejects.toThrow(/unique/i);
      await sql.transaction((t) => t.run('INSERT INTO t (n) VALUES (3)'));
      expect(nums(await sql.all('SELECT n FROM t'))).toEqual([3]);
    });

    it('nests a transaction as a savepoint: the inner one rolls back alone, a committed one stays', async () => {
      await sql.transaction(async (t) => {
        await t.run('INSERT INTO t (n) VALUES (1)');
        await t
          .transaction(async (inner) => {
            await inner.run('INSERT INTO t (n) VALUES (2)');
            throw new Error('inner fails');
          })
          .catch(() => undefined);
        await t.transaction((inner) => inner.run('INSERT INTO t (n) VALUES (3)'));
      });
      expect(nums(await sql.all('SELECT n FROM t ORDER BY n'))).toEqual([1, 3]);
    });

    it('refuses the outer Sql inside its own transaction (on SQLite it would wait for itself) instead of hanging', async () => {
      await expect(sql.transaction(() => sql.run('INSERT INTO t (n) VALUES (1)'))).rejects.toThrow(
        /use the tx argument/,
      );
      await expect(
        sql.transaction(() => sql.transaction((t) => t.run('INSERT INTO t (n) VALUES (2)'))),
      ).rejects.toThrow(/use the tx argument/);
      expect(nums(await sql.all('SELECT n FROM t'))).toEqual([]);
    });

    // A job queued inside a transaction starts its pump on a timer set there: the timer's callback inherits the
    // transaction's async context, yet runs after the commit and must reach the database as any other caller.
    it('lets work scheduled inside a transaction use the outer Sql once the transaction has ended', async () => {
      let later: Promise<unknown[]> | undefined;
      const fired = new Promise<void>((resolve) => {
        const ended: Promise<void> = sql.transaction(async (t) => {
          await t.run('INSERT INTO t (n) VALUES (1)');
          // The timer keeps the transaction's async context; it waits for the commit (however slow) before the query.
          setTimeout(() => {
            void ended.then(() => {
              later = sql.all('SELECT n FROM t');
              resolve();
            });
          }, 0);
        });
      });
      await fired;
      expect(nums((await later) ?? [])).toEqual([1]);
    });

    it('refuses a statement on a transaction that has ended (it would run outside it, or in the next one)', async () => {
      let leaked: Sql | undefined;
      await sql.transaction(async (t) => {
        leaked = t;
        await t.run('INSERT INTO t (n) VALUES (1)');
      });
      const late = leaked;
      if (!late) throw new Error('the transaction never ran');
      await expect(late.run('INSERT INTO t (n) VALUES (2)')).rejects.toThrow(/already ended/);
      await expect(late.transaction((t) => t.run('INSERT INTO t (n) VALUES (3)'))).rejects.toThrow(/already ended/);
      expect(nums(await sql.all('SELECT n FROM t'))).toEqual([1]);
    });
  });
});

describe.each(SERVICE_SQL_ENGINES)('the migrated service schema on %s', (engine) => {
  const t = useServiceSql(engine);

  it('numbers new rows from 1 by RETURNING id, and enforces the foreign keys and checks', async () => {
    const account = z.object({ id: z.number() });
    const insert = (name: string): Promise<unknown> =>
      t.sql.get(
        "INSERT INTO accounts (name, webhook_secret, created_at) VALUES (?, 's', ?) RETURNING id",
        name,
        Date.now(),
      );
    expect(account.parse(await insert('a')).id).toBe(1);
    expect(account.parse(await insert('b')).id).toBe(2);
    await expect(
      t.sql.run(
        "INSERT INTO api_keys (account_id, interface, key_hash, key_hint, created_at) VALUES (9, 'library', 'h', 'k', 0)",
      ),
    ).rejects.toThrow(/foreign key/i);
    await expect(t.sql.run('UPDATE accounts SET balance_micro = -1 WHERE id = 1')).rejects.toThrow(/check/i);
    expect((await t.sql.run('DELETE FROM accounts WHERE id = ?', 1)).changes).toBe(1);
    expect(t.db === undefined).toBe(engine === 'postgres');
  });
});

describe('SqliteSql (one connection)', () => {
  let sql: Sql;
  let close: () => Promise<void>;
  beforeEach(async () => {
    const sqlite = engines[0];
    if (!sqlite) throw new Error('no SQLite engine');
    ({ sql, close } = await sqlite.open());
  });
  afterEach(() => close());

  it('keeps other statements out of an open transaction until it ends', async () => {
    const order: string[] = [];
    const tx = sql.transaction(async (t) => {
      await t.run('INSERT INTO t (n) VALUES (1)');
      await sleep(20);
      order.push('tx sees ' + nums(await t.all('SELECT n FROM t')).join(','));
      await t.run('INSERT INTO t (n) VALUES (2)');
    });
    const outside = sql
      .all('SELECT n FROM t ORDER BY n')
      .then((rows) => order.push('outside sees ' + nums(rows).join(',')));
    await Promise.all([tx, outside]);
    expect(order).toEqual(['tx sees 1', 'outside sees 1,2']);
  });

  it('lets work scheduled inside a transaction (a timer) use the outer Sql once the transaction has ended', async () => {
    let later: Promise<unknown> | undefined;
    await sql.transaction(async (t) => {
      await t.run('INSERT INTO t (n) VALUES (1)');
      later = new Promise((resolve, reject) => {
        setTimeout(() => void sql.run('INSERT INTO t (n) VALUES (2)').then(resolve, reject), 10);
      });
    });
    await later;
    expect(nums(await sql.all('SELECT n FROM t ORDER BY n'))).toEqual([1, 2]);
  });

  it('runs queued transactions one after another, in the order issued', async () => {
    const both = [1, 2].map((k) =>
      sql.transaction(async (t) => {
        const n = nums(await t.all('SELECT n FROM t')).length;
        await sleep(5);
        await t.run('INSERT INTO t (n) VALUES (?)', k * 10 + n);
      }),
    );
    await Promise.all(both);
    expect(nums(await sql.all('SELECT n FROM t ORDER BY n'))).toEqual([10, 21]);
  });
});

describe('PostgreSQL placeholders', () => {
  it('numbers each ? outside literals, quoted identifiers, dollar-quoted strings and comments', () => {
    const text = `SELECT ?, '?''?', E'\\'?', "?""?", $$?$$, $t$ ? $t$, a$b /* ? /* ? */ ? */ -- ?\n, ?`;
    expect(numberPlaceholders(text)).toEqual({
      text: `SELECT $1, '?''?', E'\\'?', "?""?", $$?$$, $t$ ? $t$, a$b /* ? /* ? */ ? */ -- ?\n, $2`,
      count: 2,
    });
  });
});

describe.skipIf(skipPostgresTests)('PgSql (a pool of connections)', () => {
  let url: string;
  let sql: PgSql;
  beforeEach(async () => {
    url = await pgServer().createDatabase();
    sql = new PgSql(url);
    await sql.run('CREATE TABLE t (n BIGINT NOT NULL UNIQUE, b BYTEA)');
  });
  afterEach(() => sql.close());

  it('sends ? inside literals, identifiers and comments as text, and numbers the real ones', async () => {
    const row = await sql.get(
      `SELECT ? AS a, 'it''s ?' AS q, E'\\'?' AS e, $$?$$ AS d, $x$ ? $x$ AS x, "?" /* ? */
       FROM (SELECT 1 AS "?") AS sub -- ?
       WHERE "?" = ?`,
      'A',
      1,
    );
    expect(row).toEqual({ a: 'A', q: "it's ?", e: "'?", d: '?', x: ' ? ', '?': 1 });
  });

  it('reads int8 and numeric as numbers, and fails loudly on an integer beyond 2^53', async () => {
    expect(
      await sql.get(
        'SELECT COUNT(*) AS c, 9007199254740991::bigint AS big, 2.5::numeric AS r, AVG(x) AS avg FROM (VALUES (1), (2)) AS v(x)',
      ),
    ).toEqual({ c: 2, big: 9007199254740991, r: 2.5, avg: 1.5 });
    await expect(sql.get('SELECT 9007199254740993::bigint AS n')).rejects.toThrow(/beyond 2\^53/);
    await expect(sql.get('SELECT 12345678901234567890::numeric AS n')).rejects.toThrow(/beyond 2\^53/);
    expect(await sql.get('SELECT 1 AS ok')).toEqual({ ok: 1 });
  });

  it('round-trips every byte value through bytea', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await sql.run('INSERT INTO t (n, b) VALUES (1, ?)', bytes);
    const row = z.object({ b: z.instanceof(Buffer) }).parse(await sql.get('SELECT b FROM t'));
    expect(row.b.equals(bytes)).toBe(true);
  });

  it('runs two transactions at once on two connections, neither seeing the other before it commits', async () => {
    let bInserted!: () => void;
    const gate = new Promise<void>((r) => (bInserted = r));
    let aInserted!: () => void;
    const aReady = new Promise<void>((r) => (aInserted = r));
    const pid = z.object({ pid: z.number() });
    const a = sql.transaction(async (tx) => {
      await tx.run('INSERT INTO t (n) VALUES (1)');
      aInserted();
      await gate; // B runs its whole transaction while A is open: one connection could not do that
      return pid.parse(await tx.get('SELECT pg_backend_pid() AS pid')).pid;
    });
    const b = sql.transaction(async (tx) => {
      await aReady;
      expect(await tx.all('SELECT n FROM t')).toEqual([]);
      await tx.run('INSERT INTO t (n) VALUES (2)');
      bInserted();
      return pid.parse(await tx.get('SELECT pg_backend_pid() AS pid')).pid;
    });
    const [pidA, pidB] = await Promise.all([a, b]);
    expect(pidA).not.toBe(pidB);
    expect(nums(await sql.all('SELECT n FROM t ORDER BY n'))).toEqual([1, 2]);
  });

  it('gives its connection back after every kind of failed transaction', async () => {
    const one = new PgSql(url, { max: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        await expect(one.transaction(() => Promise.reject(new Error('fn fails')))).rejects.toThrow('fn fails');
        await expect(one.transaction((tx) => tx.run('INSERT INTO nowhere VALUES (1)'))).rejects.toThrow(/nowhere/);
        await expect(
          one.transaction(async (tx) => {
            await tx.run('SELECT 1/0').catch(() => undefined); // the transaction is now aborted
            await tx.run('INSERT INTO t (n) VALUES (1)');
          }),
        ).rejects.toThrow(/aborted/);
      }
      expect(await one.get('SELECT COUNT(*) AS n FROM t')).toEqual({ n: 0 });
    } finally {
      await one.close();
    }
  });

  it('discards a connection the server dropped mid-transaction instead of handing it out again', async () => {
    const one = new PgSql(url, { max: 1 });
    const admin = new PgSql(url);
    try {
      const pid = z.object({ pid: z.number() });
      const failed = one.transaction(async (tx) => {
        const mine = pid.parse(await tx.get('SELECT pg_backend_pid() AS pid')).pid;
        await admin.get('SELECT pg_terminate_backend(?)', mine);
        await sleep(50);
        await tx.run('INSERT INTO t (n) VALUES (1)');
      });
      await expect(failed).rejects.toThrow(PgConnectionError);
      await expect(failed).rejects.toThrow(`PostgreSQL at 127.0.0.1:${pgServer().port}`);
      expect(await one.get('SELECT COUNT(*) AS n FROM t')).toEqual({ n: 0 });
    } finally {
      await one.close();
      await admin.close();
    }
  });

  it('names host:port but never the password when it cannot connect', async () => {
    const closed = await freePort(); // nothing listens there
    const unreachable = new PgSql(`postgres://editor:s3cret-pw@127.0.0.1:${closed}/library`);
    const wrongDb = new PgSql(`postgres://postgres:s3cret-pw@127.0.0.1:${pgServer().port}/no_such_db`);
    try {
      for (const [db, why] of [
        [unreachable, /ECONNREFUSED/],
        [wrongDb, /does not exist/],
      ] as const) {
        const err: unknown = await db.get('SELECT 1').catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PgConnectionError);
        const message = err instanceof Error ? err.message : '';
        expect(message).toMatch(`cannot connect to PostgreSQL at ${db.where}`);
        expect(message).toMatch(why);
        expect(message).not.toContain('s3cret');
      }
      expect(unreachable.where).toBe(`127.0.0.1:${closed}`);
      const badEscape = new PgSql(`postgres://editor:s3cret%E0%A4%A@127.0.0.1:${closed}/library`);
      await expect(badEscape.get('SELECT 1')).rejects.toThrow(PgConnectionError);
      await badEscape.close();
      expect(() => new PgSql('not a url :s3cret-pw@')).toThrow(/not a URL/);
      expect(() => new PgSql('not a url :s3cret-pw@')).not.toThrow(/s3cret/);
    } finally {
      await unreachable.close();
      await wrongDb.close();
    }
  });
});
