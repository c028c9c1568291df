import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Sql, SqlParam } from '../storage/sql';
import { quoted, type TablePlan } from './table-plan';

/** A row's values in the plan's column order. */
export type RowValues = SqlParam[];

const Value = z.union([z.string(), z.number(), z.null(), z.instanceof(Uint8Array)]);
const Count = z.object({ n: z.number().int() });

/**
 * The key column as ordered: PostgreSQL sorts text by the database's collation (en_US sorts 'B' after 'a'), SQLite by
 * bytes; "C" is bytes in PostgreSQL too, so both engines walk a table in the same order.
 */
function keyExpression(sql: Sql, column: TablePlan['key'][number]): string {
  return sql.dialect === 'postgres' && column.type === 'TEXT'
    ? `${quoted(column.name)} COLLATE "C"`
    : quoted(column.name);
}

/** The table's rows in key order, `batch` at a time (keyset pages: each page starts after the last key seen). */
export async function* tableRows(sql: Sql, table: TablePlan, batch: number): AsyncGenerator<RowValues[]> {
  const columns = table.columns.map((c) => quoted(c.name)).join(', ');
  const keys = table.key.map((k) => keyExpression(sql, k));
  const keyIndexes = table.key.map((k) => table.columns.findIndex((c) => c.name === k.name));
  const order = keys.join(', ');
  const after = `(${keys.join(', ')}) > (${keys.map(() => '?').join(', ')})`;
  let last: SqlParam[] | null = null;
  for (;;) {
    const text = `SELECT ${columns} FROM ${quoted(table.name)} ${last ? `WHERE ${after}` : ''} ORDER BY ${order} LIMIT ?`;
    const raw = await sql.all(text, ...(last ?? []), batch);
    const rows = raw.map((r) => valuesOf(table, r));
    if (rows.length > 0) yield rows;
    const tail = rows[rows.length - 1];
    if (rows.length < batch || !tail) return;
    last = keyIndexes.map((i) => tail[i] ?? null);
  }
}

function valuesOf(table: TablePlan, row: unknown): RowValues {
  const record = z.record(z.string(), z.unknown()).parse(row);
  return table.columns.map((c) => Value.parse(record[c.name]));
}

export async function countRows(sql: Sql, table: string): Promise<number> {
  return Count.parse(await sql.get(`SELECT COUNT(*) AS n FROM ${quoted(table)}`)).n;
}

/**
 * SHA-256 over the table's rows in key order, each row one JSON line of its values (blobs as base64). Both engines'
 * drivers give the same JS values for the same stored row (integers and doubles as numbers, text as strings, blobs
 * as bytes), so equal tables hash equal, and one changed value changes the hash.
 */
export async function tableChecksum(sql: Sql, table: TablePlan, batch: number): Promise<string> {
  const hash = createHash('sha256');
  for await (const rows of tableRows(sql, table, batch)) {
    for (const row of rows) {
      hash.update(
        JSON.stringify(row.map((v) => (v instanceof Uint8Array ? { b: Buffer.from(v).toString('base64') } : v))),
      );
      hash.update('\n');
    }
  }
  return hash.digest('hex');
}
