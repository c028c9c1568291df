import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVICE_SQL_ENGINES } from '../../../test/helpers/service-sql';
import { useSharedDatabase, type SharedDatabase } from '../../../test/helpers/service-sql';
import type { Sql } from '../storage/sql';
import { Accounts } from './accounts';
import { Billing, InsufficientBalanceError } from './billing';

const BURST = join(import.meta.dirname, '../../../test/helpers/charge-burst.ts');

/** Balance and the ledger's sum: equal when every change of the balance left its ledger row. */
async function books(sql: Sql, accountId: number): Promise<{ balance: number; ledger: number; rows: number }> {
  const row = z.object({ balance: z.number(), ledger: z.number(), rows: z.number() }).parse(
    await sql.get(
      `SELECT a.balance_micro AS balance, COALESCE(SUM(l.amount_micro), 0) AS ledger, COUNT(l.id) AS rows
         FROM accounts a LEFT JOIN ledger l ON l.account_id = a.id WHERE a.id = ? GROUP BY a.id`,
      accountId,
    ),
  );
  return row;
}

/** Another process on the same database, charging `count` times at once when told to. */
async function burstProcess(dataDir: string, accountId: number, count: number, micro: number) {
  const child = spawn(process.execPath, [
    '--import',
    'tsx',
    BURST,
    dataDir,
    String(accountId),
    String(count),
    String(micro),
  ]);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  while (!out.includes('ready\n')) {
    if (child.exitCode !== null) throw new Error(`charge-burst exited: ${err}`);
    await once(child.stdout, 'data');
  }
  return {
    go: () => child.stdin.end('go\n'),
    charged: async (): Promise<number> => {
      const code = await exited;
      if (code !== 0) throw new Error(`charge-burst failed (${String(code)}): ${err}`);
      return z.object({ charged: z.number() }).parse(JSON.parse(out.split('\n')[1] ?? '')).charged;
    },
  };
}

describe.each(SERVICE_SQL_ENGINES)('Billing on %s', (engine) => {
  const t = useSharedDatabase(engine);
  let sql: Sql;
  let billing: Billing;
  let accountId: number;

  beforeEach(async () => {
    sql = await t().connect();
    billing = new Billing(sql);
    const accounts = new Accounts(sql);
    accountId = (await accounts.ensure('alice')).id;
    await accounts.setBalance(accountId, 1000);
  });

  it('lets exactly the affordable number of concurrent charges through, each with its ledger row', async () => {
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => billing.charge(accountId, 70, 'search')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(14); // 14 x 70 = 980 of 1000
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(InsufficientBalanceError);
    expect(await books(sql, accountId)).toEqual({ balance: 20, ledger: 20, rows: 15 });
  });

  it('two API processes charging one account at once: exactly the affordable number succeed', async () => {
    await new Accounts(sql).setBalance(accountId, 70_010);
    const charged = await (engine === 'sqlite' ? chargeInTwoProcesses : chargeOnTwoPools)(t(), accountId, 600, 70);
    expect(charged[0] + charged[1]).toBe(1000); // 1000 x 70 = 70,000 of 70,010
    expect(Math.min(...charged)).toBeGreaterThan(0); // both were charging at the same time
    expect(await books(sql, accountId)).toEqual({ balance: 10, ledger: 10, rows: 1002 });
  }, 120_000);

  it('refunds, sets balances with the difference in the ledger, and checks a balance without charging', async () => {
    await billing.charge(accountId, 400, 'upload indexing', 'VI1');
    await billing.refund(accountId, 150, 'upload failed', 'VI1');
    expect(await billing.balance(accountId)).toBe(750);
    await new Accounts(sql).setBalance(accountId, 5000);
    expect(await books(sql, accountId)).toEqual({ balance: 5000, ledger: 5000, rows: 4 });
    await expect(billing.requireAtLeast(accountId, 5001)).rejects.toThrow(InsufficientBalanceError);
    await billing.requireAtLeast(accountId, 5000);
    await expect(billing.charge(accountId, 5001, 'download')).rejects.toThrow(/needs 0.005001 USD, balance 0.005000/);
    expect(await books(sql, accountId)).toEqual({ balance: 5000, ledger: 5000, rows: 4 });
    expect(await billing.balance(9999)).toBe(0);
  });

  it('a charge made inside a caller transaction rolls back with it', async () => {
    await expect(
      sql.transaction(async (tx) => {
        await billing.charge(accountId, 300, 'datalake ingest indexing', 'op_1', tx);
        expect(await billing.balance(accountId, tx)).toBe(700);
        throw new Error('the rest of the work failed');
      }),
    ).rejects.toThrow('the rest of the work failed');
    expect(await books(sql, accountId)).toEqual({ balance: 1000, ledger: 1000, rows: 1 });
  });
});

/** SQLite: two processes on the database file (one process cannot overlap two connections' transactions). */
async function chargeInTwoProcesses(
  t: SharedDatabase,
  accountId: number,
  count: number,
  micro: number,
): Promise<[number, number]> {
  const dataDir = t.dataDir ?? '';
  const processes = await Promise.all([1, 2].map(() => burstProcess(dataDir, accountId, count, micro)));
  for (const p of processes) p.go();
  const [a = 0, b = 0] = await Promise.all(processes.map((p) => p.charged()));
  return [a, b];
}

/** PostgreSQL: two pools, as two API replicas hold. */
async function chargeOnTwoPools(
  t: SharedDatabase,
  accountId: number,
  count: number,
  micro: number,
): Promise<[number, number]> {
  const replicas = [new Billing(await t.connect()), new Billing(await t.connect())];
  const [a = 0, b = 0] = await Promise.all(
    replicas.map(async (billing) => {
      const results = await Promise.allSettled(
        Array.from({ length: count }, () => billing.charge(accountId, micro, 'burst')),
      );
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(InsufficientBalanceError);
      return results.filter((r) => r.status === 'fulfilled').length;
    }),
  );
  return [a, b];
}
