import { describe, expect, it } from 'vitest';
import { indexedVideo } from '../../../test/helpers/indexed-video';
import { SERVICE_SQL_ENGINES, useSharedDatabase } from '../../../test/helpers/service-sql';
import { INDEX_RULES_VERSION } from '../indexer/index-rules';
import { JobRows } from '../jobs/job-rows';
import { countOf } from '../storage/rows';
import type { Sql } from '../storage/sql';
import { countOutdated, outdatedToQueue, queueOutdated, reindexRef } from './outdated-videos';

describe.each(SERVICE_SQL_ENGINES)('outdated videos on %s', (engine) => {
  const database = useSharedDatabase(engine);

  /** An account with a current video, an outdated one with its original, an outdated one without. */
  async function library(sql: Sql): Promise<{ current: string; outdated: string; noOriginal: string }> {
    const account = countOf(
      await sql.get(
        "INSERT INTO accounts (name, webhook_secret, created_at) VALUES ('editor', 's', 0) RETURNING id AS n",
      ),
    );
    const [current, outdated, noOriginal] = [
      await indexedVideo(sql, account, 1),
      await indexedVideo(sql, account, 1),
      await indexedVideo(sql, account, 1),
    ];
    await sql.run("UPDATE videos SET blob = 'videos/x/original.mp4' WHERE id <> ?", noOriginal.videoId);
    await sql.run('UPDATE videos SET index_rules = ? WHERE id = ?', INDEX_RULES_VERSION, current.videoId);
    await sql.run("UPDATE videos SET index_rules = 'older' WHERE id = ?", outdated.videoId);
    return { current: current.videoNo, outdated: outdated.videoNo, noOriginal: noOriginal.videoNo };
  }

  it('counts stamped-otherwise and unstamped PARSE videos, and which can be re-indexed', async () => {
    const sql = await database().connect();
    const videos = await library(sql);
    expect(await countOutdated(sql)).toEqual({ outdated: 2, withoutOriginal: 1, queued: 0, failed: 0 });
    expect((await outdatedToQueue(sql, 10)).map((v) => v.video_no)).toEqual([videos.outdated]);
  });

  it('queues one re-index per video and rules version however many processes queue at once, and none after it failed', async () => {
    const first = await database().connect();
    const videos = await library(first);
    const connections = [first, await database().connect(), await database().connect()];
    const queued = await Promise.all(
      connections.map((sql) => {
        const rows = new JobRows(sql);
        return queueOutdated(sql, rows.insertOnce.bind(rows), 10, 3);
      }),
    );
    expect(queued.reduce((a, b) => a + b, 0)).toBe(1);
    const refs = await first.all("SELECT ref FROM jobs WHERE kind = 'reindex'");
    expect(refs).toEqual([{ ref: reindexRef(videos.outdated) }]);
    expect(await countOutdated(first)).toMatchObject({ outdated: 2, queued: 1 });
    // The unique index holds whatever any process reads first.
    expect(await new JobRows(first).insertOnce('reindex', reindexRef(videos.outdated), {}, 3)).toBe(false);

    await first.run("UPDATE jobs SET state = 'failed' WHERE kind = 'reindex'");
    expect(await countOutdated(first)).toMatchObject({ queued: 0, failed: 1 });
    expect(await outdatedToQueue(first, 10)).toEqual([]);
    const rows = new JobRows(first);
    expect(await queueOutdated(first, rows.insertOnce.bind(rows), 10, 3)).toBe(0);
  });
});
