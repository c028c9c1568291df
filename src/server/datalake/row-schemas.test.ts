import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { tempDir } from '../../../test/helpers/temp';
import { Accounts } from '../accounts/accounts';
import { openServiceDb, type Db } from '../storage/db';
import { SqliteSql } from '../storage/sqlite-sql';
import { Operations } from './operations';

let db: Db;
let accountId: number;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  const made = await tempDir('reelsync-rows-');
  cleanup = made.cleanup;
  db = openServiceDb(made.dir);
  accountId = (await new Accounts(new SqliteSql(db)).ensure('a')).id;
});
afterEach(async () => {
  db.close();
  await cleanup();
});

describe('datalake rows are parsed as read, never cast', () => {
  it('refuses an operation whose error code is not one of the service codes', async () => {
    const operations = new Operations(new SqliteSql(db));
    const op = await operations.create({ accountId, kind: 'ingest', resource: 'vid_3' });
    db.prepare("UPDATE dl_operations SET error_code = 'made_up' WHERE id = ?").run(op.id);
    await expect(operations.byId(op.id)).rejects.toThrow(ZodError);
  });
});
