import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z, ZodError } from 'zod';
import { tempDir } from '../../../test/helpers/temp';
import { descriptorToBlob, FACE_MODEL } from '../indexer/analyzers/face-match';
import { openServiceDb } from '../storage/db';
import type { Sql } from '../storage/sql';
import { SqliteSql } from '../storage/sqlite-sql';
import { Collections } from './collections';
import { DlVideos, type NewDlVideo } from './dl-videos';
import { deriveFaceEntities, faceEntities } from './face-entities';
import { newestFirst, pageRequest } from './paging';

/** A fresh service database on one engine, migrated, and how to let it go. */
interface Engine {
  name: string;
  open(): Promise<{ sql: Sql; close: () => Promise<void> }>;
}

const sqlite: Engine = {
  name: 'sqlite',
  async open() {
    const { dir, cleanup } = await tempDir('reelsync-dl-stores-');
    const db = openServiceDb(dir);
    return {
      sql: new SqliteSql(db),
      close: async () => {
        db.close();
        await cleanup();
      },
    };
  },
};

const idRow = z.object({ id: z.number().int() });
const countRow = z.object({ n: z.number().int() });

describe.each([sqlite])('datalake record stores on $name', (engine) => {
  let sql: Sql;
  let close: () => Promise<void>;
  let videos: DlVideos;
  let collections: Collections;
  let accountId: number;
  let otherAccountId: number;

  const account = async (name: string): Promise<number> =>
    idRow.parse(
      await sql.get(
        'INSERT INTO accounts (name, balance_micro, webhook_secret, created_at) VALUES (?, 0, ?, ?) RETURNING id',
        name,
        `whsec_${name}`,
        Date.now(),
      ),
    ).id;
  const count = async (query: string, ...params: (string | number)[]): Promise<number> =>
    countRow.parse(await sql.get(query, ...params)).n;
  const video = (id: string, collectionId: string, over: Partial<NewDlVideo> = {}): NewDlVideo => ({
    id,
    accountId,
    collectionId,
    status: 'processing',
    sourceType: 'url',
    sourceUrl: 'https://example.com/a.mp4',
    filename: 'a.mp4',
    contentType: null,
    uploadSize: null,
    fps: 1.5,
    metadata: { scene: 12 },
    callbackUrl: null,
    idempotencyKey: null,
    ...over,
  });

  beforeEach(async () => {
    ({ sql, close } = await engine.open());
    videos = new DlVideos(sql);
    collections = new Collections(sql);
    accountId = await account('a');
    otherAccountId = await account('b');
  });
  afterEach(async () => {
    await close();
  });

  it('creates a collection with its library folder, and removes both unless a library video files there', async () => {
    const kept = await collections.create(accountId, 'kept', true, false);
    const gone = await collections.create(accountId, 'gone', false, true);
    expect(kept).toMatchObject({ account_id: accountId, name: 'kept', safety_detector: 1, face_recognition: 0 });
    expect(await count('SELECT COUNT(*) AS n FROM folders WHERE id IN (?, ?)', kept.folder_id, gone.folder_id)).toBe(2);
    expect(await collections.get(otherAccountId, kept.id)).toBeUndefined();
    await sql.run(
      `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size,
         sha256, created_at) VALUES ('VI1', ?, ?, 'v', 'v', 'PARSE', 'b', 'video/mp4', 1, '', 1)`,
      accountId,
      kept.folder_id,
    );
    await collections.remove(kept.id);
    await collections.remove(gone.id);
    await collections.remove('col_none');
    expect(await collections.byId(kept.id)).toBeUndefined();
    expect(await collections.byId(gone.id)).toBeUndefined();
    expect(await count('SELECT COUNT(*) AS n FROM folders WHERE id = ?', kept.folder_id)).toBe(1);
    expect(await count('SELECT COUNT(*) AS n FROM folders WHERE id = ?', gone.folder_id)).toBe(0);
  });

  it('counts a collection video_count without cancelled ingests', async () => {
    const c = await collections.create(accountId, 'c', false, false);
    await videos.insert(video('v1', c.id));
    await videos.insert(video('v2', c.id, { status: 'cancelled' }));
    expect((await collections.record(c)).video_count).toBe(1);
  });

  it('lists videos newest first, one account, one collection or all, cancelled left out, paged without a gap', async () => {
    const c1 = await collections.create(accountId, 'c1', false, false);
    const c2 = await collections.create(accountId, 'c2', false, false);
    const theirs = await collections.create(otherAccountId, 'x', false, false);
    for (const [i, id] of ['v1', 'v2', 'v3', 'v4', 'v5'].entries())
      await videos.insert(video(id, i % 2 ? c2.id : c1.id, i === 2 ? { status: 'cancelled' } : {}));
    await videos.insert({ ...video('v6', theirs.id), accountId: otherAccountId });
    // Ties in the same millisecond are broken by id, so no row is skipped or repeated across pages.
    await sql.run("UPDATE dl_videos SET created_at = 5000 WHERE id IN ('v1', 'v4', 'v5')");
    await sql.run("UPDATE dl_videos SET created_at = 1000 WHERE id = 'v2'");
    const walk = async (collectionId: string | undefined): Promise<string[][]> => {
      const pages: string[][] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await videos.list(accountId, collectionId, pageRequest(newestFirst, 2, cursor));
        pages.push(page.rows.map((r) => r.id));
        if (page.nextCursor === null) return pages;
        cursor = page.nextCursor;
      }
    };
    expect(await walk(undefined)).toEqual([
      ['v5', 'v4'],
      ['v1', 'v2'],
    ]);
    expect((await walk(c1.id)).flat()).toEqual(['v5', 'v1']);
    expect((await walk(c2.id)).flat()).toEqual(['v4', 'v2']);
    expect((await videos.inCollection(c1.id)).map((v) => v.id)).toEqual(['v1', 'v5', 'v3']); // oldest first
  });

  it('reads a row as written: metadata object, fps, stream offset; and by account, key, and search hits', async () => {
    const c = await collections.create(accountId, 'c', false, false);
    const row = await videos.insert(
      video('s1', c.id, { idempotencyKey: 'k', stream: { id: 'str_1', offset: 12.25 }, uploadSize: 2 ** 40 }),
    );
    expect(row).toMatchObject({ metadata: { scene: 12 }, fps: 1.5, stream_offset: 12.25, upload_size: 2 ** 40 });
    expect(await videos.byId('s1')).toEqual(row);
    expect(await videos.get(otherAccountId, 's1')).toBeUndefined();
    expect((await videos.byIdempotencyKey(accountId, 'k'))?.id).toBe('s1');
    expect(await videos.processingInStream('str_1')).toBe(true);
    await videos.setStatus('s1', 'ready');
    expect(await videos.processingInStream('str_1')).toBe(false);
    expect(await videos.collectionsOf(['s1', 'none', 's1'])).toEqual(new Map([['s1', c.id]]));
    expect(await videos.collectionsOf([])).toEqual(new Map());
  });

  it('expires an upload session only as read: a touch or a finalize since then keeps it', async () => {
    const c = await collections.create(accountId, 'c', false, false);
    const session = (id: string) => video(id, c.id, { status: 'uploading', sourceType: 'resumable', uploadSize: 10 });
    await videos.insert(session('u1'));
    await videos.insert(session('u2'));
    await videos.insert({ ...session('u3'), accountId: otherAccountId });
    expect((await videos.openUploads(accountId)).map((v) => v.id).sort()).toEqual(['u1', 'u2']);
    expect(await videos.openUploads()).toHaveLength(3);
    const u1 = await videos.byId('u1');
    await sql.run("UPDATE dl_videos SET updated_at = updated_at - 1000 WHERE id = 'u1'");
    expect(await videos.expireSession('u1', u1?.updated_at ?? 0)).toBe(false);
    await videos.setStatus('u2', 'processing');
    expect(await videos.expireSession('u2', (await videos.byId('u2'))?.updated_at ?? 0)).toBe(false);
    expect(await videos.expireSession('u1', (u1?.updated_at ?? 0) - 1000)).toBe(true);
    expect(await videos.byId('u1')).toBeUndefined();
    expect((await videos.byId('u2'))?.status).toBe('processing');
  });

  it('reads metadata back as the object written, and refuses a row whose column is not what its schema says', async () => {
    const c = await collections.create(accountId, 'c', false, false);
    expect((await videos.insert(video('v1', c.id, { metadata: { scene: 12, take: 'b' } }))).metadata).toEqual({
      scene: 12,
      take: 'b',
    });
    expect(await videos.byId('v_none')).toBeUndefined();
    await sql.run("UPDATE dl_videos SET metadata = '[1, 2]' WHERE id = ?", 'v1');
    await expect(videos.byId('v1')).rejects.toThrow(ZodError);
    await expect(videos.inCollection(c.id)).rejects.toThrow(ZodError);
  });

  it('removes a video with its events, safety frames and face entities, and nothing of another video', async () => {
    const c = await collections.create(accountId, 'c', false, false);
    for (const id of ['v1', 'v2']) {
      await videos.insert(video(id, c.id));
      await sql.run(
        `INSERT INTO dl_events (id, video_id, event_type, start_time, end_time, score, description, detector_id,
           detector_version, created_at) VALUES (?, ?, 'unsafe', 0, 1, 0.9, 'd', 'nsfw', '1', 1)`,
        `ev_${id}`,
        id,
      );
      await sql.run("INSERT INTO dl_safety_frames (video_id, t, unsafe, scores) VALUES (?, 0, 0.1, '{}')", id);
      await sql.run(
        "INSERT INTO dl_face_entities (video_id, entity_id, faces, first_seen, last_seen, best_score) VALUES (?, 'f', 1, 0, 1, 0.9)",
        id,
      );
    }
    await videos.remove('v1');
    for (const table of ['dl_events', 'dl_safety_frames', 'dl_face_entities', 'dl_videos']) {
      const column = table === 'dl_videos' ? 'id' : 'video_id';
      expect(await count(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = 'v1'`)).toBe(0);
      expect(await count(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = 'v2'`)).toBe(1);
    }
  });

  it('groups a video faces into entities, replacing what an earlier derive wrote', async () => {
    const c = await collections.create(accountId, 'c', false, true);
    await videos.insert(video('VI7', c.id));
    const library = idRow.parse(
      await sql.get(
        `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type,
           size, sha256, created_at) VALUES ('VI7', ?, ?, 'v', 'v', 'PARSE', 'b', 'video/mp4', 1, '', 1) RETURNING id`,
        accountId,
        c.folder_id,
      ),
    ).id;
    const person = (x: number): Buffer => descriptorToBlob(Array.from({ length: 128 }, (_, i) => (i === 0 ? x : 0)));
    // Two faces of one person (0 and 0.1 apart) in segments 0 and 2, another person (5 away) in segment 1.
    const faces: [number, number, number, Buffer][] = [
      [0, 0, 2, person(0)],
      [1, 2, 4, person(5)],
      [2, 4, 6, person(0.1)],
    ];
    for (const [idx, start, end, descriptor] of faces) {
      await sql.run(
        'INSERT INTO segments (video_id, idx, start_time, end_time) VALUES (?, ?, ?, ?)',
        library,
        idx,
        start,
        end,
      );
      await sql.run(
        "INSERT INTO faces (video_id, segment_idx, descriptor, box, score, model) VALUES (?, ?, ?, '[]', ?, ?)",
        library,
        idx,
        descriptor,
        0.5 + idx / 10,
        FACE_MODEL,
      );
    }
    await sql.run(
      "INSERT INTO dl_face_entities (video_id, entity_id, faces, first_seen, last_seen, best_score) VALUES ('VI7', 'stale', 9, 0, 1, 1)",
    );
    const derived = await deriveFaceEntities(sql, 'VI7', library);
    const stored = await faceEntities(sql, 'VI7');
    expect(stored).toEqual(derived);
    expect(
      stored.map(({ faces, first_seen, last_seen, best_score }) => ({ faces, first_seen, last_seen, best_score })),
    ).toEqual([
      { faces: 2, first_seen: 0, last_seen: 6, best_score: 0.7 },
      { faces: 1, first_seen: 2, last_seen: 4, best_score: 0.6 },
    ]);
  });
});
