import { z } from 'zod';
import { PRICES_MICRO_USD } from '../../shared/api-types';
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

/** Price of indexing a video: 0.5 USD per 1000 video minutes, by the second, at least one micro-dollar. */
export function indexingPrice(durationSeconds: number): number {
  return Math.max(1, Math.ceil((durationSeconds / 60) * PRICES_MICRO_USD.indexPerVideoMinute));
}

/** Price of a download: 0.12 USD per GB (10^9 bytes), rounded up to the micro-dollar. */
export function downloadPrice(bytes: number): number {
  return Math.ceil((bytes * PRICES_MICRO_USD.downloadPerGb) / 1e9);
}

/** Atomic deductions with a ledger row each. Balances never go below zero. */
export class Billing {
  constructor(private readonly db: Db) {}

  balance(accountId: number): number {
    const balance: unknown = this.db.prepare('SELECT balance_micro FROM accounts WHERE id = ?').pluck().get(accountId);
    return balance === undefined ? 0 : z.number().int().parse(balance);
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
