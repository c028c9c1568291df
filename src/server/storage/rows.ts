import { z } from 'zod';

/**
 * Rows come back from SQLite as `unknown`: every store reads them through its table's zod row schema (as the client's
 * stores do), so a schema and its table can never drift apart unnoticed.
 */

/** `SELECT COUNT(*) AS n ...` */
export const countOf = (row: unknown): number => z.object({ n: z.number().int() }).parse(row).n;

/** A `.get()` result parsed; undefined when no row matched. */
export function optionalRow<T>(schema: z.ZodType<T>, row: unknown): T | undefined {
  return row === undefined ? undefined : schema.parse(row);
}

/** `.all()` results, each parsed. */
export function parsedRows<T>(schema: z.ZodType<T>, rows: unknown[]): T[] {
  return rows.map((row) => schema.parse(row));
}

/** A TEXT column holding a JSON object (e.g. a datalake `metadata`), read as the object. */
export const jsonObjectColumn = z
  .string()
  .transform((text): unknown => JSON.parse(text))
  .pipe(z.record(z.string(), z.unknown()));

/** An INTEGER 0/1 column. */
export const flagColumn = z.union([z.literal(0), z.literal(1)]);
