import { unreachable } from '../../shared/errors';
import type { Sql } from './sql';

/**
 * The SQL that differs between the two engines, in one place; every other statement is written once for both.
 * SQLite's transactions begin IMMEDIATE and hold the database's write lock until they end, so row locks cost it no
 * statement; PostgreSQL runs READ COMMITTED, where two transactions would otherwise both read the state before
 * either writes.
 */

/** The tables whose rows a transaction locks before it reads what it then writes. */
export type LockedTable = 'accounts' | 'dl_operations' | 'dl_videos';

/**
 * Locks one row until the transaction `tx` ends, so that a read-then-write under it cannot interleave with the same
 * transaction in another request, replica or process.
 */
export async function lockRow(tx: Sql, table: LockedTable, id: string | number): Promise<void> {
  switch (tx.dialect) {
    case 'sqlite':
      return;
    case 'postgres':
      await tx.get(`SELECT 1 AS n FROM ${table} WHERE id = ? FOR UPDATE`, id);
      return;
    default:
      throw unreachable(tx.dialect);
  }
}

/**
 * The row lock clause of a claim's pick (a SELECT of rows to claim): PostgreSQL skips rows another claimer holds;
 * SQLite's write statement takes the database's write lock before it reads, so pick and claim are one step there.
 */
export function skipLocked(sql: Sql): string {
  return sql.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
}

/** The larger of two values in one row: GREATEST on PostgreSQL, the two-argument MAX on SQLite. */
export function greatest(sql: Sql): 'GREATEST' | 'MAX' {
  return sql.dialect === 'postgres' ? 'GREATEST' : 'MAX';
}
