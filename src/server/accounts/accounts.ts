import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { optionalRow } from '../storage/rows';
import type { Sql } from '../storage/sql';

export type KeyInterface = 'library' | 'datalake';

/** Key prefixes tell the two key kinds apart, as the real service's do. */
export const KEY_PREFIX: Record<KeyInterface, string> = { library: 'rsl_', datalake: 'rsd_' };

export interface Account {
  id: number;
  name: string;
  balanceMicro: number;
  webhookSecret: string;
}

const accountRow = z
  .object({
    id: z.number().int(),
    name: z.string(),
    balance_micro: z.number().int(),
    webhook_secret: z.string(),
  })
  .transform((r): Account => ({
    id: r.id,
    name: r.name,
    balanceMicro: r.balance_micro,
    webhookSecret: r.webhook_secret,
  }));

const ACCOUNT_COLUMNS = 'a.id, a.name, a.balance_micro, a.webhook_secret';

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export class Accounts {
  constructor(private readonly sql: Sql) {}

  async ensure(name: string): Promise<Account> {
    await this.sql.run(
      'INSERT INTO accounts (name, webhook_secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
      name,
      `whsec_${randomBytes(24).toString('base64')}`,
      Date.now(),
    );
    const account = await this.byName(name);
    if (!account) throw new Error(`account ${name} vanished right after it was written`);
    return account;
  }

  async byName(name: string): Promise<Account | undefined> {
    return optionalRow(
      accountRow,
      await this.sql.get(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.name = ?`, name),
    );
  }

  async byId(id: number, on: Sql = this.sql): Promise<Account | undefined> {
    return optionalRow(accountRow, await on.get(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?`, id));
  }

  /** Creates a key and returns it; only its hash is stored. */
  async createKey(accountId: number, kind: KeyInterface): Promise<string> {
    const key = `${KEY_PREFIX[kind]}${randomBytes(24).toString('base64url')}`;
    await this.sql.run(
      'INSERT INTO api_keys (account_id, interface, key_hash, key_hint, created_at) VALUES (?, ?, ?, ?, ?)',
      accountId,
      kind,
      hashKey(key),
      key.slice(0, 8),
      Date.now(),
    );
    return key;
  }

  /** The account a key belongs to, when the key exists, is not revoked and is of the wanted kind. */
  async authenticate(key: string, kind: KeyInterface): Promise<Account | undefined> {
    if (!key.startsWith(KEY_PREFIX[kind]) || key.length > 200) return undefined;
    // Lookup by SHA-256 of the key: the stored value is never the key, and equality on a digest leaks nothing useful.
    return optionalRow(
      accountRow,
      await this.sql.get(
        `SELECT ${ACCOUNT_COLUMNS} FROM api_keys k JOIN accounts a ON a.id = k.account_id
         WHERE k.key_hash = ? AND k.interface = ? AND k.revoked_at IS NULL`,
        hashKey(key),
        kind,
      ),
    );
  }

  /** Sets the balance, with a ledger row for the difference; exact while charges run on other connections. */
  async setBalance(accountId: number, micro: number): Promise<void> {
    await this.sql.transaction(async (tx) => {
      // A write first: on PostgreSQL it locks the row, so no charge commits between the read and the update below
      // (the ledger's difference stays exact); SQLite's transaction already holds the database's write lock.
      const locked = await tx.run('UPDATE accounts SET balance_micro = balance_micro WHERE id = ?', accountId);
      if (locked.changes !== 1) throw new Error(`no account ${accountId}`);
      const before = await this.byId(accountId, tx);
      await tx.run('UPDATE accounts SET balance_micro = ? WHERE id = ?', micro, accountId);
      await tx.run(
        'INSERT INTO ledger (account_id, amount_micro, reason, created_at) VALUES (?, ?, ?, ?)',
        accountId,
        micro - (before?.balanceMicro ?? 0),
        'balance set',
        Date.now(),
      );
    });
  }
}
