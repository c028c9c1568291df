import { unreachable } from '../../shared/errors';
import type { Sql } from '../storage/sql';

/** The rows a datalake transaction locks before it reads what it then writes. */
type LockedTable = 'accounts' | 'dl_operations' | 'dl_videos';

/**
 * Locks one row until the transaction `tx` ends, so that a read-then-write under it cannot interleave with the same
 * transaction in another request or process: on PostgreSQL (READ COMMITTED) two transactions would otherwise both read
 * the state before either writes. SQLite needs no statement: its transactions begin IMMEDIATE and hold the database's
 * write lock until they end.
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
