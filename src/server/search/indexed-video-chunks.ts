import { z } from 'zod';
import { keysetPages } from '../storage/keyset-pages';
import { parsedRows } from '../storage/rows';
import type { Sql } from '../storage/sql';

const idRow = z.object({ id: z.number().int() });

/**
 * The ids of the account's indexed (PARSE) videos, `size` at a time in id order: what a scan of an account's faces or
 * keyframe vectors walks (`WHERE v.id IN (chunk)`), so that it reads the account's rows only, whatever other accounts
 * hold, and no statement answers more than `size` videos' rows at once.
 */
export async function* indexedVideoChunks(sql: Sql, accountId: number, size: number): AsyncGenerator<number[]> {
  const pages = keysetPages(
    async (after, n) =>
      parsedRows(
        idRow,
        await sql.all(
          "SELECT id FROM videos WHERE account_id = ? AND status = 'PARSE' AND id > ? ORDER BY id LIMIT ?",
          accountId,
          after,
          n,
        ),
      ),
    (row) => row.id,
    size,
  );
  for await (const page of pages) yield page.map((row) => row.id);
}
