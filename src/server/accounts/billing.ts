import type { Db } from '../storage/db';

export class InsufficientBalanceError extends Error {
  constructor(
    readonly neededMicro: number,
    readonly balanceMicro: number,
  ) {
    super(`insufficient balance: needs ${formatUsd(neededMicro)}, balance ${formatUsd(balanceMicro)}`);
    this.name = 'InsufficientBalanceError';
  }
}

export function formatUsd(micro: number): string {
  return `${(micro / 1_000_000).toFixed(6)} USD`;
}

export function usdToMicro(usd: number): number {
  return Math.round(usd * 1_000_000);
}

/** Atomic deductions with a ledger row each. Balances never go below zero. */
export class Billing {
  constructor(private readonly db: Db) {}

  balance(accountId: number): number {
    const row = this.db.prepare('SELECT balance_micro FROM accounts WHERE id = ?').get(accountId) as
      { balance_micro: number } | undefined;
    return row?.balance_micro ?? 0;
  }

  /** Throws InsufficientBalanceError and charges nothing when the balance does not cover the amount. */
  charge(accountId: number, micro: number, reason: string, ref?: string): void {
    if (micro <= 0) return;
    this.db.transaction(() => {
      const res = this.db
        .prepare('UPDATE accounts SET balance_micro = balance_micro - ? WHERE id = ? AND balance_micro >= ?')
        .run(micro, accountId, micro);
      if (res.changes !== 1) throw new InsufficientBalanceError(micro, this.balance(accountId));
      this.db
        .prepare('INSERT INTO ledger (account_id, amount_micro, reason, ref, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(accountId, -micro, reason, ref ?? null, Date.now());
    })();
  }

  refund(accountId: number, micro: number, reason: string, ref?: string): void {
    if (micro <= 0) return;
    this.db.transaction(() => {
      this.db.prepare('UPDATE accounts SET balance_micro = balance_micro + ? WHERE id = ?').run(micro, accountId);
      this.db
        .prepare('INSERT INTO ledger (account_id, amount_micro, reason, ref, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(accountId, micro, reason, ref ?? null, Date.now());
    })();
  }

  /** Throws when the balance is below `micro`, charging nothing (a check before any work starts). */
  requireAtLeast(accountId: number, micro: number): void {
    const balance = this.balance(accountId);
    if (balance < micro) throw new InsufficientBalanceError(micro, balance);
  }
}
