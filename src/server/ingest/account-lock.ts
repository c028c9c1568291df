import { lockRow } from '../storage/dialect';
import type { Sql } from '../storage/sql';

/**
 * Keeps other transactions of this account waiting until `tx` ends, for a count-then-insert (a per-account cap)
 * that must hold with several API replicas on one database (storage/dialect.ts: the account's row, locked until commit).
 */
export async function lockAccount(tx: Sql, accountId: number): Promise<void> {
  await lockRow(tx, 'accounts', accountId);
}
