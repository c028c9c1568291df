import { z } from 'zod';
import type { Sql } from '../storage/sql';
import { quoted, type TablePlan } from './table-plan';
import { countRows, tableRows } from './table-rows';

/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMS = 60_000;
const MAX_BATCH = 500;

export interface TableCopied {
  rows: number;
  /** Rows new in the target (the rest were there from an earlier run). */
  inserted: number;
}

/**
 * Copies one table's rows with their ids, a batch per statement, each committed on its own: a run killed mid-way
 * leaves whole batches, and the next run inserts only what is missing (ON CONFLICT DO NOTHING on every key).
 */
export async function copyTable(
  source: Sql,
  target: Sql,
  table: TablePlan,
  progress: (done: number, total: number) => void,
): Promise<TableCopied> {
  const total = await countRows(source, table.name);
  const batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(MAX_PARAMS / table.columns.length)));
  const columns = table.columns.map((c) => quoted(c.name)).join(', ');
  const tuple = `(${table.columns.map(() => '?').join(', ')})`;
  let rows = 0;
  let inserted = 0;
  for await (const page of tableRows(source, table, batch)) {
    const { changes } = await target.run(
      `INSERT INTO ${quoted(table.name)} (${columns}) VALUES ${page.map(() => tuple).join(', ')} ON CONFLICT DO NOTHING`,
      ...page.flat(),
    );
    rows += page.length;
    inserted += changes;
    progress(rows, total);
  }
  if (table.identity) await moveSequencePast(target, table.name, table.identity);
  return { rows, inserted };
}

/** The identity's next value goes past the largest copied id, so rows the team server adds never collide. */
async function moveSequencePast(target: Sql, table: string, column: string): Promise<void> {
  z.unknown().parse(
    await target.get(
      `SELECT setval(pg_get_serial_sequence(?, ?), (SELECT COALESCE(MAX(${quoted(column)}), 0) + 1 FROM ${quoted(table)}), false) AS v`,
      table,
      column,
    ),
  );
}
