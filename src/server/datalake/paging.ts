import { z } from 'zod';
import type { Sql, SqlParam } from '../storage/sql';
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

/** Turns the rows a list query read (one more than the page holds, which tells whether another page follows) into a page. */
function pageOf<Row, Key>(order: PageOrder<NoInfer<Row>, Key>, request: PageRequest<Key>, rows: Row[]): Page<Row> {
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

/** A statement and its parameters. */
interface Query {
  sql: string;
  params: SqlParam[];
}

/**
 * The statement of one newest-first page: the rows after the cursor by a row-value comparison, which SQLite and
 * PostgreSQL both read, and one row more than the page holds.
 */
function newestFirstQuery(table: string, where: string, args: SqlParam[], request: PageRequest<NewestFirstKey>): Query {
  const { after, limit } = request;
  const cursor = after ? ' AND (created_at, id) < (?, ?)' : '';
  return {
    sql: `SELECT * FROM ${table} WHERE ${where}${cursor} ORDER BY created_at DESC, id DESC LIMIT ?`,
    params: [...args, ...(after ? [after.t, after.id] : []), limit + 1],
  };
}

/** The statement of one media-time page (as newestFirstQuery, ascending by the `start` expression then `seq`). */
function mediaTimeQuery(
  query: { sql: string; args: SqlParam[]; start: string; seq: string },
  request: PageRequest<MediaTimeKey>,
): Query {
  const { sql, args, start, seq } = query;
  const { after, limit } = request;
  const cursor = after ? ` AND (${start}, ${seq}) > (?, ?)` : '';
  return {
    sql: `${sql}${cursor} ORDER BY ${start}, ${seq} LIMIT ?`,
    params: [...args, ...(after ? [after.start, after.seq] : []), limit + 1],
  };
}

/**
 * A newest-first page of `table`'s rows matching `where` (SQL over its columns, its `?` bound to `args`), each read
 * through `rowSchema`.
 */
export async function newestFirstPage<Row extends { created_at: number; id: string }>(
  sql: Sql,
  table: string,
  rowSchema: z.ZodType<Row>,
  where: string,
  args: SqlParam[],
  request: PageRequest<NewestFirstKey>,
): Promise<Page<Row>> {
  const q = newestFirstQuery(table, where, args, request);
  return pageOf(newestFirst, request, parsedRows(rowSchema, await sql.all(q.sql, ...q.params)));
}

/**
 * A media-time page of what `query` selects (`SELECT ... FROM ... WHERE ...`, its `?` bound to `args`), ordered by
 * the `start` expression then `seq`; the rows name them start_time and seq and are read through `rowSchema`.
 */
export async function mediaTimePage<Row extends { start_time: number; seq: number }>(
  sql: Sql,
  rowSchema: z.ZodType<Row>,
  query: { sql: string; args: SqlParam[]; start: string; seq: string },
  request: PageRequest<MediaTimeKey>,
): Promise<Page<Row>> {
  const q = mediaTimeQuery(query, request);
  return pageOf(mediaTimeOrder, request, parsedRows(rowSchema, await sql.all(q.sql, ...q.params)));
}
