import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { newAccount, newVideo } from '../../../test/helpers/library-rows';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { segmentTableDdl, segmentTable } from '../search/sqlite/fts-table';
import { countOf } from '../storage/rows';
import type { Sql } from '../storage/sql';
import { Folders } from './folders';
import { Videos, type VideoRow } from './videos';

const rowsIn = async (sql: Sql, table: string, videoId: number): Promise<number> =>
  countOf(await sql.get(`SELECT COUNT(*) AS n FROM ${table} WHERE video_id = ?`, videoId));

describe.each(SERVICE_SQL_ENGINES)('Videos on %s', (engine) => {
  const store = useServiceSql(engine);

  async function setup() {
    const videos = new Videos(store.sql);
    const folders = new Folders(store.sql);
    const accountId = await newAccount(store.sql);
    const folderId = await folders.defaultFolderId(accountId);
    return { videos, folders, accountId, folderId };
  }

  it('inserts a video with its tags in the order given (a repeated tag once), and reads it back by id and number', async () => {
    const { videos, accountId, folderId } = await setup();
    const row = await videos.insert(newVideo(accountId, folderId, { tags: ['zebra', 'apple', 'mango', 'apple'] }));
    expect(row).toMatchObject({ account_id: accountId, folder_id: folderId, status: 'UNPARSE', progress: 0 });
    expect(row.duration).toBe(12.5);
    expect(await videos.tags(row.id)).toEqual(['zebra', 'apple', 'mango']);
    expect(await videos.byId(row.id)).toEqual(row);
    expect(await videos.byNo(accountId, row.video_no)).toEqual(row);
    const other = await videos.insert(newVideo(accountId, folderId, { tags: ['b', 'a'] }));
    const tags = await videos.tagsOf([row.id, other.id, 999_999]);
    expect(tags.get(other.id)).toEqual(['b', 'a']);
    expect(tags.get(row.id)).toEqual(['zebra', 'apple', 'mango']);
    expect(tags.has(999_999)).toBe(false);
  });

  it("never answers another account's video by number", async () => {
    const { videos, accountId, folderId } = await setup();
    const row = await videos.insert(newVideo(accountId, folderId));
    const stranger = await newAccount(store.sql);
    expect(await videos.byNo(stranger, row.video_no)).toBeUndefined();
  });

  it('refuses a video in a folder that does not exist, and records nothing', async () => {
    const { videos, accountId, folderId } = await setup();
    await expect(videos.insert(newVideo(accountId, folderId + 1000))).rejects.toThrow();
    expect((await videos.list({ accountId, page: 1, size: 10 })).total).toBe(0);
  });

  it('lists by folder, status, number and tag, newest first, in pages with the total', async () => {
    const { videos, folders, accountId, folderId } = await setup();
    const other = await folders.create(accountId, 'Other');
    const made: VideoRow[] = [];
    for (let i = 0; i < 5; i++)
      made.push(await videos.insert(newVideo(accountId, i < 3 ? folderId : other.folder_id, { tags: [`t${i % 2}`] })));
    await store.sql.run("UPDATE videos SET status = 'PARSE' WHERE id = ?", made[1]?.id ?? 0);
    const nos = async (f: Partial<Parameters<Videos['list']>[0]>) => {
      const { rows, total } = await videos.list({ accountId, page: 1, size: 10, ...f });
      return { nos: rows.map((r) => r.video_no), total };
    };
    const no = (i: number) => made[i]?.video_no;
    expect(await nos({})).toEqual({ nos: [4, 3, 2, 1, 0].map(no), total: 5 });
    expect(await nos({ folderId })).toEqual({ nos: [2, 1, 0].map(no), total: 3 });
    expect(await nos({ status: 'PARSE' })).toEqual({ nos: [no(1)], total: 1 });
    expect(await nos({ videoNo: no(3) })).toEqual({ nos: [no(3)], total: 1 });
    expect(await nos({ tag: 't1' })).toEqual({ nos: [3, 1].map(no), total: 2 });
    expect(await nos({ page: 2, size: 2 })).toEqual({ nos: [2, 1].map(no), total: 5 });
    expect(await nos({ page: 3, size: 2 })).toEqual({ nos: [no(0)], total: 5 });
    expect(await nos({ page: 4, size: 2 })).toEqual({ nos: [], total: 5 });
    const stranger = await newAccount(store.sql);
    expect(await videos.list({ accountId: stranger, page: 1, size: 10 })).toEqual({ rows: [], total: 0 });
  });

  it('matches a part of the name in any letter case, with % and _ taken literally', async () => {
    const { videos, accountId, folderId } = await setup();
    const names = ['Beach_Day.mp4', 'beachXday.mp4', '100% Sunset.MOV', '1000 sunsets.mov', 'back\\slash.mp4'];
    for (const videoName of names) await videos.insert(newVideo(accountId, folderId, { videoName }));
    const named = async (videoName: string) =>
      (await videos.list({ accountId, videoName, page: 1, size: 10 })).rows.map((r) => r.video_name).sort();
    expect(await named('BEACH_day')).toEqual(['Beach_Day.mp4']);
    expect(await named('beach')).toEqual(['Beach_Day.mp4', 'beachXday.mp4']);
    expect(await named('0% sun')).toEqual(['100% Sunset.MOV']);
    expect(await named('SUNSET')).toEqual(['100% Sunset.MOV', '1000 sunsets.mov']);
    expect(await named('k\\s')).toEqual(['back\\slash.mp4']);
    expect(await named('%')).toEqual(['100% Sunset.MOV']);
    expect(await named('_')).toEqual(['Beach_Day.mp4']);
  });

  it('counts queued uploads in the window and originals still being fetched; attaches an original once', async () => {
    const { videos, accountId, folderId } = await setup();
    const before = Date.now();
    const fetched = await videos.insert(newVideo(accountId, folderId, { blob: null }));
    await videos.insert(newVideo(accountId, folderId));
    expect(await videos.queuedSince(accountId, before)).toBe(2);
    expect(await videos.queuedSince(accountId, Date.now() + 1000)).toBe(0);
    expect(await videos.fetching(accountId)).toBe(1);
    const original = {
      blob: 'videos/v/a.mp4',
      contentType: 'video/mp4',
      size: 5,
      sha256: 'cd',
      duration: 3,
      width: null,
      height: null,
      fps: null,
      codec: 'h264',
    };
    expect(await videos.attachOriginal(fetched.id, original)).toBe(true);
    expect(await videos.attachOriginal(fetched.id, original)).toBe(false);
    expect(await videos.fetching(accountId)).toBe(0);
    expect(await videos.byId(fetched.id)).toMatchObject({ blob: 'videos/v/a.mp4', size: 5, duration: 3 });
  });

  it('stores progress only while the video waits for its index', async () => {
    const { videos, accountId, folderId } = await setup();
    const row = await videos.insert(newVideo(accountId, folderId));
    await videos.setProgress(row.id, 42.5);
    expect((await videos.byId(row.id))?.progress).toBe(42.5);
    await store.sql.run("UPDATE videos SET status = 'PARSE', progress = 100 WHERE id = ?", row.id);
    await videos.setProgress(row.id, 10);
    expect((await videos.byId(row.id))?.progress).toBe(100);
  });

  /** A video with a segment, a word, a face and (on SQLite) its full-text rows. */
  async function indexedVideo(videos: Videos, accountId: number, folderId: number) {
    const { sql } = store;
    const row = await videos.insert(newVideo(accountId, folderId, { tags: ['a'] }));
    const segment = z
      .object({ id: z.number().int() })
      .parse(
        await sql.get(
          "INSERT INTO segments (video_id, idx, start_time, end_time, caption) VALUES (?, 0, 0, 5, 'a red car') RETURNING id",
          row.id,
        ),
      ).id;
    await sql.run(
      "INSERT INTO transcript_words (video_id, idx, word, start_time, end_time) VALUES (?, 0, 'hello', 0, 1)",
      row.id,
    );
    await sql.run(
      "INSERT INTO faces (video_id, segment_idx, descriptor, box, score) VALUES (?, 0, ?, '{}', 0.9)",
      row.id,
      new Uint8Array([1, 2]),
    );
    if (sql.dialect === 'sqlite') {
      await sql.run(segmentTableDdl(accountId));
      await sql.run(`INSERT INTO ${segmentTable(accountId)} (rowid, caption) VALUES (?, 'a red car')`, segment);
      await sql.run("INSERT INTO segments_trigram (rowid, body) VALUES (?, 'a red car')", segment);
    }
    return { row, segment };
  }

  const fullTextRows = async (accountId: number, segment: number): Promise<number[]> =>
    store.sql.dialect === 'sqlite'
      ? [
          countOf(await store.sql.get(`SELECT COUNT(*) AS n FROM ${segmentTable(accountId)} WHERE rowid = ?`, segment)),
          countOf(await store.sql.get('SELECT COUNT(*) AS n FROM segments_trigram WHERE rowid = ?', segment)),
        ]
      : [];

  it('deletes a video with its tags, segments, words, faces and full-text rows, and nothing of another video', async () => {
    const { videos, accountId, folderId } = await setup();
    const gone = await indexedVideo(videos, accountId, folderId);
    const kept = await indexedVideo(videos, accountId, folderId);
    await videos.delete(gone.row.id);
    expect(await videos.byId(gone.row.id)).toBeUndefined();
    for (const table of ['video_tags', 'segments', 'transcript_words', 'faces']) {
      expect(await rowsIn(store.sql, table, gone.row.id)).toBe(0);
      expect(await rowsIn(store.sql, table, kept.row.id)).toBe(1);
    }
    expect(await fullTextRows(accountId, gone.segment)).toEqual(store.sql.dialect === 'sqlite' ? [0, 0] : []);
    expect(await fullTextRows(accountId, kept.segment)).toEqual(store.sql.dialect === 'sqlite' ? [1, 1] : []);
    await videos.delete(gone.row.id); // already gone: nothing to do
  });

  it('deletes a video of an account that has no full-text table yet', async () => {
    const { videos, accountId, folderId } = await setup();
    const row = await videos.insert(newVideo(accountId, folderId));
    await videos.delete(row.id);
    expect(await videos.byId(row.id)).toBeUndefined();
  });

  it('keeps the full-text rows when the video row cannot be deleted (one transaction)', async () => {
    const { videos, accountId, folderId } = await setup();
    const { row, segment } = await indexedVideo(videos, accountId, folderId);
    // A row that still points at the video, without a cascade: the delete of the video fails.
    await store.sql.run('CREATE TABLE pinned (video_id BIGINT NOT NULL REFERENCES videos(id))');
    await store.sql.run('INSERT INTO pinned (video_id) VALUES (?)', row.id);
    await expect(videos.delete(row.id)).rejects.toThrow(/foreign key/i);
    expect(await videos.byId(row.id)).toBeDefined();
    expect(await rowsIn(store.sql, 'segments', row.id)).toBe(1);
    expect(await fullTextRows(accountId, segment)).toEqual(store.sql.dialect === 'sqlite' ? [1, 1] : []);
  });
});
