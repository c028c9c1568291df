import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVICE_SQL_ENGINES } from '../../../test/helpers/service-sql';
import { useSharedDatabase } from '../../../test/helpers/service-sql';
import { Accounts, hashKey } from './accounts';
import { Billing, InsufficientBalanceError } from './billing';

describe.each(SERVICE_SQL_ENGINES)('Accounts on %s', (engine) => {
  const t = useSharedDatabase(engine);

  it('creates an account once, and finds it by the key of the right kind only', async () => {
    const accounts = new Accounts(await t().connect());
    const alice = await accounts.ensure('alice');
    expect(await accounts.ensure('alice')).toEqual(alice);
    expect(alice.webhookSecret).toMatch(/^whsec_/);
    const key = await accounts.createKey(alice.id, 'library');
    expect(key).toMatch(/^rsl_/);
    expect(await accounts.authenticate(key, 'library')).toEqual(alice);
    expect(await accounts.authenticate(key, 'datalake')).toBeUndefined();
    expect(await accounts.authenticate(`${key}x`, 'library')).toBeUndefined();
    const lake = await accounts.createKey(alice.id, 'datalake');
    expect(await accounts.authenticate(lake, 'datalake')).toEqual(alice);
    expect(await accounts.byName('bob')).toBeUndefined();
    expect(await accounts.byId(alice.id)).toEqual(alice);
  });

  it('stores only the hash of a key', async () => {
    const sql = await t().connect();
    const accounts = new Accounts(sql);
    const key = await accounts.createKey((await accounts.ensure('alice')).id, 'library');
    const stored = z
      .array(z.object({ key_hash: z.string(), key_hint: z.string() }))
      .parse(await sql.all('SELECT key_hash, key_hint FROM api_keys'));
    expect(stored).toEqual([{ key_hash: hashKey(key), key_hint: key.slice(0, 8) }]);
  });

  // PostgreSQL only: on SQLite the transactions of two connections in one process would wait for each other (one
  // thread), and the database's single writer lock already orders them (billing.test.ts runs two processes there).
  it.skipIf(engine === 'sqlite')(
    'setting a balance while another replica charges keeps the ledger equal to the balance',
    async () => {
      const sql = await t().connect();
      const accounts = new Accounts(sql);
      const id = (await accounts.ensure('alice')).id;
      await accounts.setBalance(id, 100_000);
      const other = new Billing(await t().connect());
      const charges = Array.from({ length: 200 }, () =>
        other.charge(id, 10, 'search').catch((err: unknown) => {
          if (!(err instanceof InsufficientBalanceError)) throw err;
        }),
      );
      const sets = Array.from({ length: 20 }, (_, i) => accounts.setBalance(id, 50_000 + i));
      await Promise.all([...charges, ...sets]);
      const books = z.object({ balance: z.number(), ledger: z.number() }).parse(
        await sql.get(
          `SELECT a.balance_micro AS balance, (SELECT SUM(amount_micro) FROM ledger WHERE account_id = a.id) AS ledger
           FROM accounts a WHERE a.id = ?`,
          id,
        ),
      );
      expect(books.ledger).toBe(books.balance);
      await expect(accounts.setBalance(9999, 1)).rejects.toThrow('no account 9999');
    },
  );
});
