import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { newAccount, newVideo } from '../../../test/helpers/library-rows';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { lockAccount } from './account-lock';
import { Folders } from '../library/folders';
import { Videos } from '../library/videos';

describe.each(SERVICE_SQL_ENGINES)('lockAccount on %s', (engine) => {
  const t = useServiceSql(engine);

  it('lets one of several concurrent count-then-insert transactions of an account pass a cap of one', async () => {
    const { sql } = t;
    const videos = new Videos(sql);
    const accountId = await newAccount(sql);
    const folderId = await new Folders(sql).defaultFolderId(accountId);
    const startFetch = () =>
      sql.transaction(async (tx) => {
        await lockAccount(tx, accountId);
        if ((await videos.fetching(accountId, tx)) >= 1) return false;
        await sleep(30); // the other requests arrive meanwhile
        await videos.insert(newVideo(accountId, folderId, { blob: null }), undefined, tx);
        return true;
      });
    const admitted = await Promise.all([startFetch(), startFetch(), startFetch()]);
    expect(admitted.filter(Boolean)).toHaveLength(1);
    expect(await videos.fetching(accountId)).toBe(1);
  });
});
