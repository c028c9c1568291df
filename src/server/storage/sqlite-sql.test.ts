import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../../../test/helpers/temp';
import { openSqlite, type Db } from '../../common/sqlite';
import { SqliteSql } from './sqlite-sql';

const nums = (rows: unknown[]): number[] => rows.map((r) => z.object({ n: z.number() }).parse(r).n);

describe('SqliteSql', () => {
  let db: Db;
  let sql: SqliteSql;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const t = await tempDir();
    cleanup = t.cleanup;
    db = openSqlite(join(t.dir, 'a.db'), [
      { version: 1, name: 't', up: 'CREATE TABLE t (n INTEGER NOT NULL UNIQUE, b BLOB)' },
    ]);
    sql = new SqliteSql(db);
  });
  afterEach(async () => {
    db.close();
    await cleanup();
  });

  it('runs, reads and counts changes; binds Uint8Array views as blobs', async () => {
    expect(
      (await sql.run('INSERT INTO t (n, b) VALUES (?, ?)', 1, new Uint8Array(new Float32Array([1.5]).buffer))).changes,
    ).toBe(1);
    expect((await sql.run('INSERT INTO t (n) VALUES (?) ON CONFLICT DO NOTHING', 1)).changes).toBe(0);
    expect(await sql.get('SELECT n FROM t WHERE n = ?', 2)).toBeUndefined();
    const row = z.object({ b: z.instanceof(Buffer) }).parse(await sql.get('SELECT b FROM t WHERE n = 1'));
    expect(new Float32Array(row.b.buffer, row.b.byteOffset, 1)[0]).toBe(1.5);
    expect(await sql.get('INSERT INTO t (n) VALUES (?) RETURNING n', 5)).toEqual({ n: 5 });
  });

  it('commits a transaction that awaits between statements, and keeps other statements out until it ends', async () => {
    const order: string[] = [];
    const tx = sql.transaction(async (t) => {
      await t.run('INSERT INTO t (n) VALUES (1)');
      await new Promise((r) => setTimeout(r, 20));
      order.push('tx sees ' + nums(await t.all('SELECT n FROM t')).join(','));
      await t.run('INSERT INTO t (n) VALUES (2)');
    });
    const outside = sql
      .all('SELECT n FROM t ORDER BY n')
      .then((rows) => order.push('outside sees ' + nums(rows).join(',')));
    await Promise.all([tx, outside]);
    expect(order).toEqual(['tx sees 1', 'outside sees 1,2']);
  });

  it('rolls back a transaction that throws, and the next one runs', async () => {
    await expect(
      sql.transaction(async (t) => {
        await t.run('INSERT INTO t (n) VALUES (1)');
        await t.run('INSERT INTO t (n) VALUES (1)');
      }),
    ).rejects.toThrow(/UNIQUE/);
    expect(db.inTransaction).toBe(false);
    await sql.transaction((t) => t.run('INSERT INTO t (n) VALUES (3)'));
    expect(nums(await sql.all('SELECT n FROM t'))).toEqual([3]);
  });

  it('runs queued transactions one after another, in the order issued', async () => {
    const both = [1, 2].map((k) =>
      sql.transaction(async (t) => {
        const n = nums(await t.all('SELECT n FROM t')).length;
        await new Promise((r) => setTimeout(r, 5));
        await t.run('INSERT INTO t (n) VALUES (?)', k * 10 + n);
      }),
    );
    await Promise.all(both);
    expect(nums(await sql.all('SELECT n FROM t ORDER BY n'))).toEqual([10, 21]);
  });

  it('nests a transaction as a savepoint: the inner one rolls back alone', async () => {
    await sql.transaction(async (t) => {
      await t.run('INSERT INTO t (n) VALUES (1)');
      await t
        .transaction(async (inner) => {
          await inner.run('INSERT INTO t (n) VALUES (2)');
          throw new Error('inner fails');
        })
        .catch(() => undefined);
    });
    expect(nums(await sql.all('SELECT n FROM t'))).toEqual([1]);
  });

  it('refuses the outer Sql inside its own transaction (it would wait for itself) instead of hanging', async () => {
    await expect(sql.transaction(() => sql.run('INSERT INTO t (n) VALUES (1)'))).rejects.toThrow(/use the tx argument/);
    expect(nums(await sql.all('SELECT n FROM t'))).toEqual([]);
  });

  it('lets work scheduled inside a transaction (a timer) use the outer Sql once the transaction has ended', async () => {
    let later: Promise<unknown[]> | undefined;
    await sql.transaction(async (tx) => {
      await tx.run('INSERT INTO t (n) VALUES (1)');
      later = new Promise<unknown[]>((resolve, reject) => {
        setTimeout(() => void sql.all('SELECT n FROM t').then(resolve, reject), 10);
      });
    });
    expect(nums((await later) ?? [])).toEqual([1]);
  });
});
