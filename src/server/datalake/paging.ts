import { z } from 'zod';
import type { Db } from '../storage/db';
import { parsedRows } from '../storage/rows';
import { invalid } from './errors';

/**
 * How one datalake list is ordered: the sort key of a row, which is what a cursor carries (the key of the last row
 * served), and its shape, checked when a client sends the cursor back.
 */
export interface PageOrder<Row, Key> {
  key: z.ZodType<Key>;
  keyOf(row: Row): Key;
}

/** A page as a client asked for it, its cursor checked: `after` is undefined for the first page. */
export interface PageRequest<Key> {
  limit: number;
  after: Key | undefined;
}

export interface Page<Row> {
  rows: Row[];
  /** Opaque to clients (base64url JSON of the last row's sort key); null on the last page. */
  nextCursor: string | null;
}

/** Reads a client's cursor; one this service did not issue is a 400 invalid_argument. */
export function pageRequest<Key>(
  order: { key: z.ZodType<Key> },
  limit: number,
  cursor: string | undefined,
): PageRequest<Key> {
  if (cursor === undefined || cursor === '') return { limit, after: undefined };
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor is not a cursor this service issued');
  }
  const parsed = order.key.safeParse(raw);
  if (!parsed.success) throw invalid('cursor is not a cursor this service issued');
  return { limit, after: parsed.data };
}

/**
 * Every datalake list reads its pages here: the query is asked for one row more than the page holds, which tells
 * whether another page follows without counting.
 */
function readPage<Row, Key>(
  order: PageOrder<NoInfer<Row>, Key>,
  request: PageRequest<Key>,
  query: (after: Key | undefined, limit: number) => Row[],
): Page<Row> {
  const rows = query(request.after, request.limit + 1);
  const page = rows.slice(0, request.limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor:
      rows.length > request.limit && last ? Buffer.from(JSON.stringify(order.keyOf(last))).toString('base64url') : null,
  };
}

export interface NewestFirstKey {
  t: number;
  id: string;
}

/** Collections, videos, streams: newest first, ties by id. */
export const newestFirst: PageOrder<{ created_at: number; id: string }, NewestFirstKey> = {
  key: z.object({ t: z.number().int(), id: z.string() }),
  keyOf: (row) => ({ t: row.created_at, id: row.id }),
};

export interface MediaTimeKey {
  start: number;
  seq: number;
}

/** Safety events: media-time order, ties by write order. */
export const mediaTimeOrder: PageOrder<{ start_time: number; seq: number }, MediaTimeKey> = {
  key: z.object({ start: z.number(), seq: z.number().int() }),
  keyOf: (row) => ({ start: row.start_time, seq: row.seq }),
};

/**
 * A newest-first page of `table`'s rows matching `where` (SQL over its columns, its `?` bound to `args`), each read
 * through `rowSchema`.
 */
export function newestFirstPage<Row extends { created_at: number; id: string }>(
  db: Db,
  table: string,
  rowSchema: z.ZodType<Row>,
  where: string,
  args: unknown[],
  request: PageRequest<NewestFirstKey>,
): Page<Row> {
  return readPage(newestFirst, request, (before, limit) =>
    parsedRows(
      rowSchema,
      db
        .prepare(
          `SELECT * FROM ${table} WHERE ${where} AND (? IS NULL OR created_at < ? OR (created_at = ? AND id < ?))
             ORDER BY created_at DESC, id DESC LIMIT ?`,
        )
        .all(...args, before?.t ?? null, before?.t ?? 0, before?.t ?? 0, before?.id ?? '', limit),
    ),
  );
}

/**
 * A media-time page of what `query` selects (`SELECT ... FROM ... WHERE ...`, its `?` bound to `args`), ordered by
 * the `start` expression then `seq`; the rows name them start_time and seq and are read through `rowSchema`.
 */
export function mediaTimePage<Row extends { start_time: number; seq: number }>(
  db: Db,
  rowSchema: z.ZodType<Row>,
  query: { sql: string; args: unknown[]; start: string; seq: string },
  request: PageRequest<MediaTimeKey>,
): Page<Row> {
  const { sql, args, start, seq } = query;
  return readPage(mediaTimeOrder, request, (after, limit) =>
    parsedRows(
      rowSchema,
      db
        .prepare(
          `${sql} AND (? IS NULL OR ${start} > ? OR (${start} = ? AND ${seq} > ?)) ORDER BY ${start}, ${seq} LIMIT ?`,
        )
        .all(...args, after?.start ?? null, after?.start ?? 0, after?.start ?? 0, after?.seq ?? 0, limit),
    ),
  );
}
