import { expect, it } from 'vitest';
import { z } from 'zod';
import { openSqlite } from '../../common/sqlite';
import { SqliteSql } from './sqlite-sql';

// A job queued inside a transaction starts its pump on a timer set there: the timer's callback inherits the
// transaction's async context, yet runs after the commit and must reach the database as any other caller.
it('lets a timer set inside a SqliteSql transaction use the outer Sql once the transaction has ended', async () => {
  const db = openSqlite(':memory:', [{ version: 1, name: 't', up: 'CREATE TABLE t (n INTEGER NOT NULL)' }]);
  const sql = new SqliteSql(db);
  try {
    let later: Promise<unknown> | undefined;
    const fired = new Promise<void>((resolve) => {
      void sql.transaction(async (tx) => {
        await tx.run('INSERT INTO t (n) VALUES (1)');
        setTimeout(() => {
          later = sql.get('SELECT COUNT(*) AS n FROM t');
          resolve();
        }, 10);
      });
    });
    await fired;
    expect(z.object({ n: z.number() }).parse(await later).n).toBe(1);
  } finally {
    db.close();
  }
});
