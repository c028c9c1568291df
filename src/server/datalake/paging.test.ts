import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { Accounts } from '../accounts/accounts';
import { openServiceDb, type Db } from '../storage/db';
import { SqliteSql } from '../storage/sqlite-sql';
import { Collections } from './collections';
import { DatalakeError } from './errors';
import { newestFirst, pageRequest } from './paging';

let db: Db;
let collections: Collections;
let accountId: number;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  const made = await tempDir('reelsync-paging-');
  cleanup = made.cleanup;
  db = openServiceDb(made.dir);
  collections = new Collections(db);
  accountId = (await new Accounts(new SqliteSql(db)).ensure('a')).id;
});
afterEach(async () => {
  db.close();
  await cleanup();
});

/** Every page of the account's collections, `limit` at a time, following next cursors to the end. */
function walk(limit: number): { names: string[][]; cursors: (string | null)[] } {
  const names: string[][] = [];
  const cursors: (string | null)[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = collections.list(accountId, pageRequest(newestFirst, limit, cursor));
    names.push(page.rows.map((r) => r.name));
    cursors.push(page.nextCursor);
    if (page.nextCursor === null) return { names, cursors };
    cursor = page.nextCursor;
  }
}

describe('datalake paging', () => {
  it('serves every row once, newest first, ties by id, and no cursor after the last page', () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) collections.create(accountId, name, false, false);
    // Two rows in the same millisecond: the id breaks the tie, so neither is skipped nor repeated.
    db.prepare('UPDATE dl_collections SET created_at = 1000 WHERE name IN (?, ?)').run('c', 'd');
    const byAge = (
      db.prepare('SELECT name FROM dl_collections ORDER BY created_at DESC, id DESC').all() as { name: string }[]
    ).map((r) => r.name);

    const { names, cursors } = walk(2);
    expect(names.map((n) => n.length)).toEqual([2, 2, 1]);
    expect(names.flat()).toEqual(byAge);
    expect(cursors.at(-1)).toBeNull();
    // A page that ends exactly at the last row has no next cursor either: the extra row tells, not a count.
    expect(walk(5).names).toEqual([byAge]);
  });

  it('issues cursors as base64url JSON of the last row sort key, as before', () => {
    collections.create(accountId, 'one', false, false);
    collections.create(accountId, 'two', false, false);
    const first = collections.list(accountId, pageRequest(newestFirst, 1, undefined));
    const expected = db
      .prepare('SELECT created_at, id FROM dl_collections ORDER BY created_at DESC, id DESC LIMIT 1')
      .get() as { created_at: number; id: string };
    expect(first.rows.map((r) => r.id)).toEqual([expected.id]);
    expect(JSON.parse(Buffer.from(first.nextCursor ?? '', 'base64url').toString('utf8'))).toEqual({
      t: expected.created_at,
      id: expected.id,
    });
  });

  it('refuses a cursor it did not issue with a 400 invalid_argument, an empty one reads the first page', () => {
    const refused = (cursor: string): unknown => {
      try {
        pageRequest(newestFirst, 10, cursor);
      } catch (err) {
        return err instanceof DatalakeError ? [err.httpStatus, err.code, err.message] : err;
      }
      return 'accepted';
    };
    const notIssued = [400, 'invalid_argument', 'cursor is not a cursor this service issued'];
    expect(refused('%%%')).toEqual(notIssued);
    expect(refused(Buffer.from('{"t":"x","id":1}').toString('base64url'))).toEqual(notIssued);
    expect(refused(Buffer.from('not json').toString('base64url'))).toEqual(notIssued);
    expect(pageRequest(newestFirst, 10, '')).toEqual({ limit: 10, after: undefined });
  });
});
