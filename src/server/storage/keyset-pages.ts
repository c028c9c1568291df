/**
 * The rows of a query too large to hold at once (every keyframe vector or face of an account), a page at a time in
 * the order of an increasing positive integer key: `read(after, size)` answers at most `size` rows whose key is above
 * `after`, in key order (`... AND key > ? ORDER BY key LIMIT ?`). Each page starts where the last ended, so the whole
 * read costs one pass whatever the page size, on either engine (better-sqlite3's iterate() has no PostgreSQL twin).
 */
export async function* keysetPages<T>(
  read: (after: number, size: number) => Promise<T[]>,
  keyOf: (row: T) => number,
  size: number,
): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const page = await read(after, size);
    if (page.length > 0) yield page;
    const last = page[page.length - 1];
    if (page.length < size || last === undefined) return;
    after = keyOf(last);
  }
}
