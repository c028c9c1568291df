import { z } from 'zod';
import { PRICES_MICRO_USD } from '../../shared/api-types';
import { optionalRow } from '../storage/rows';
import type { Sql } from '../storage/sql';

const balanceRow = z.object({ balance_micro: z.number().int() });

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

/**
 * Deductions with a ledger row each, exact with any number of concurrent requests and API replicas on one database:
 * a charge is one conditional UPDATE (`balance_micro >= amount`), so two charges can never both spend the same money.
 * Balances never go below zero.
 */
export class Billing {
  constructor(private readonly sql: Sql) {}

  async balance(accountId: number, on: Sql = this.sql): Promise<number> {
    const row = optionalRow(balanceRow, await on.get('SELECT balance_micro FROM accounts WHERE id = ?', accountId));
    return row?.balance_micro ?? 0;
  }

  /** Throws InsufficientBalanceError and charges nothing when the balance does not cover the amount. */
  async charge(accountId: number, micro: number, reason: string, ref?: string, on: Sql = this.sql): Promise<void> {
    if (micro <= 0) return;
    await on.transaction(async (tx) => {
      const res = await tx.run(
        'UPDATE accounts SET balance_micro = balance_micro - ? WHERE id = ? AND balance_micro >= ?',
        micro,
        accountId,
        micro,
      );
      if (res.changes !== 1) throw new InsufficientBalanceError(micro, await this.balance(accountId, tx));
      await this.ledger(tx, accountId, -micro, reason, ref);
    });
  }

  async refund(accountId: number, micro: number, reason: string, ref?: string, on: Sql = this.sql): Promise<void> {
    if (micro <= 0) return;
    await on.transaction(async (tx) => {
      await tx.run('UPDATE accounts SET balance_micro = balance_micro + ? WHERE id = ?', micro, accountId);
      await this.ledger(tx, accountId, micro, reason, ref);
    });
  }

  /** Throws when the balance is below `micro`, charging nothing (a check before any work starts). */
  async requireAtLeast(accountId: number, micro: number): Promise<void> {
    const balance = await this.balance(accountId);
    if (balance < micro) throw new InsufficientBalanceError(micro, balance);
  }

  private async ledger(tx: Sql, accountId: number, micro: number, reason: string, ref: string | undefined) {
    await tx.run(
      'INSERT INTO ledger (account_id, amount_micro, reason, ref, created_at) VALUES (?, ?, ?, ?, ?)',
      accountId,
      micro,
      reason,
      ref ?? null,
      Date.now(),
    );
  }
}
