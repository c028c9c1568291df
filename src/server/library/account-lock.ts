import { unreachable } from '../../shared/errors';
import type { Sql } from '../storage/sql';

/**
 * Keeps other transactions of this account waiting until `tx` ends, for a count-then-insert (a per-account cap)
 * that must hold with several API replicas on one database. SQLite needs nothing: its transactions (BEGIN
 * IMMEDIATE) already exclude every other writer. PostgreSQL: the account's row, locked until commit.
 */
export async function lockAccount(tx: Sql, accountId: number): Promise<void> {
  switch (tx.dialect) {
    case 'sqlite':
      return;
    case 'postgres':
      await tx.get('SELECT id FROM accounts WHERE id = ? FOR UPDATE', accountId);
      return;
    default:
      throw unreachable(tx.dialect);
  }
}
