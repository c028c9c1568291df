import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../storage/db';

export type KeyInterface = 'library' | 'datalake';

/** Key prefixes tell the two key kinds apart, as the real service's do. */
export const KEY_PREFIX: Record<KeyInterface, string> = { library: 'rsl_', datalake: 'rsd_' };

export interface Account {
  id: number;
  name: string;
  balanceMicro: number;
  webhookSecret: string;
}

const accountRow = z.object({
  id: z.number().int(),
  name: z.string(),
  balance_micro: z.number().int(),
  webhook_secret: z.string(),
});

/** An `accounts` row as an Account; undefined when no row was found. */
const toAccount = (row: unknown): Account | undefined => {
  if (row === undefined) return undefined;
  const r = accountRow.parse(row);
  return { id: r.id, name: r.name, balanceMicro: r.balance_micro, webhookSecret: r.webhook_secret };
};

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export class Accounts {
  constructor(private readonly db: Db) {}

  ensure(name: string): Account {
    this.db
      .prepare('INSERT INTO accounts (name, webhook_secret, created_at) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING')
      .run(name, `whsec_${randomBytes(24).toString('base64')}`, Date.now());
    const account = this.byName(name);
    if (!account) throw new Error(`account ${name} vanished right after it was written`);
    return account;
  }

  byName(name: string): Account | undefined {
    return toAccount(this.db.prepare('SELECT * FROM accounts WHERE name = ?').get(name));
  }

  byId(id: number): Account | undefined {
    return toAccount(this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id));
  }

  /** Creates a key and returns it; only its hash is stored. */
  createKey(accountId: number, kind: KeyInterface): string {
    const key = `${KEY_PREFIX[kind]}${randomBytes(24).toString('base64url')}`;
    this.db
      .prepare('INSERT INTO api_keys (account_id, interface, key_hash, key_hint, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(accountId, kind, hashKey(key), key.slice(0, 8), Date.now());
    return key;
  }

  /** The account a key belongs to, when the key exists, is not revoked and is of the wanted kind. */
  authenticate(key: string, kind: KeyInterface): Account | undefined {
    if (!key.startsWith(KEY_PREFIX[kind]) || key.length > 200) return undefined;
    // Lookup by SHA-256 of the key: the stored value is never the key, and equality on a digest leaks nothing useful.
    return toAccount(
      this.db
        .prepare(
          `SELECT a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id
           WHERE k.key_hash = ? AND k.interface = ? AND k.revoked_at IS NULL`,
        )
        .get(hashKey(key), kind),
    );
  }

  setBalance(accountId: number, micro: number): void {
    this.db.transaction(() => {
      const before = this.byId(accountId);
      this.db.prepare('UPDATE accounts SET balance_micro = ? WHERE id = ?').run(micro, accountId);
      this.db
        .prepare('INSERT INTO ledger (account_id, amount_micro, reason, created_at) VALUES (?, ?, ?, ?)')
        .run(accountId, micro - (before?.balanceMicro ?? 0), 'balance set', Date.now());
    })();
  }
}
