import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexedVideo } from '../../../../test/helpers/indexed-video';
import { newAccount } from '../../../../test/helpers/library-rows';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../../test/helpers/service-sql';
import { tempDir } from '../../../../test/helpers/temp';
import { openSqlite } from '../../../common/sqlite';
import { descriptorToBlob, FACE_MODEL, HUMAN_FACERES_MODEL } from '../../indexer/analyzers/face-match';
import { openServiceDb } from '../../storage/db';
import { serviceMigrations } from '../../storage/migrations';
import type { Sql } from '../../storage/sql';
import { SqliteSql } from '../../storage/sqlite-sql';
import { searchFaces } from './face-search';

async function addFace(sql: Sql, videoId: number, segment: number, descriptor: Float32Array, model?: string) {
  if (model === undefined) {
    await sql.run(
      "INSERT INTO faces (video_id, segment_idx, descriptor, box, score) VALUES (?, ?, ?, '[0,0,1,1]', 0.9)",
      videoId,
      segment,
      descriptorToBlob(descriptor),
    );
  } else {
    await sql.run(
      "INSERT INTO faces (video_id, segment_idx, descriptor, model, box, score) VALUES (?, ?, ?, ?, '[0,0,1,1]', 0.9)",
      videoId,
      segment,
      descriptorToBlob(descriptor),
      model,
    );
  }
}

const query = Float32Array.from({ length: 128 }, (_, i) => Math.sin(i) / 10);
function moved(distance: number): Float32Array {
  const d = Float32Array.from(query);
  d[3] = (d[3] ?? 0) + distance;
  return d;
}

describe.each(SERVICE_SQL_ENGINES)('searchFaces on %s', (engine) => {
  const t = useServiceSql(engine);

  it('ranks by face-api distance, and a face stored by another model is never compared', async () => {
    const accountId = await newAccount(t.sql);
    const { videoId, videoNo } = await indexedVideo(t.sql, accountId, 4);
    await addFace(t.sql, videoId, 0, moved(0.8), FACE_MODEL);
    await addFace(t.sql, videoId, 1, moved(0.2), FACE_MODEL);
    await addFace(
      t.sql,
      videoId,
      2,
      Float32Array.from({ length: 1024 }, () => 0.1),
      HUMAN_FACERES_MODEL,
    );
    // Same length as a face-api descriptor, other model: still not comparable.
    await addFace(t.sql, videoId, 3, query, 'other:128');
    const hits = await searchFaces(t.sql, accountId, [query], 10);
    expect(hits.map((h) => h.keyframeBlob)).toEqual([`keyframes/${videoNo}/1.jpg`, `keyframes/${videoNo}/0.jpg`]);
    expect(hits[0]!.score).toBeGreaterThan(0.95);
    expect(hits[1]!.score).toBeLessThan(0.1);
  });

  it("searches the caller's faces only, over all of its videos", async () => {
    const mine = await newAccount(t.sql);
    const theirs = await newAccount(t.sql);
    const other = await indexedVideo(t.sql, theirs, 1);
    // The other account holds the exact face; the caller near ones, in more videos than one read takes (face-search.ts).
    await addFace(t.sql, other.videoId, 0, query, FACE_MODEL);
    const own = [];
    for (let i = 0; i < 40; i++) {
      const video = await indexedVideo(t.sql, mine, 1);
      await addFace(t.sql, video.videoId, 0, moved(0.5 + i / 100), FACE_MODEL);
      own.push(video);
    }
    const last = await indexedVideo(t.sql, mine, 1);
    await addFace(t.sql, last.videoId, 0, moved(0.1), FACE_MODEL);
    const hits = await searchFaces(t.sql, mine, [query], 3);
    expect(hits.map((h) => h.videoNo)).toEqual([last.videoNo, own[0]!.videoNo, own[1]!.videoNo]);
    const found = await searchFaces(t.sql, theirs, [query], 10);
    expect(found.map((h) => h.videoNo)).toEqual([other.videoNo]);
    expect(found[0]!.score).toBeGreaterThan(0.99);
    // A video not indexed (yet, or failed) is not searched.
    await t.sql.run("UPDATE videos SET status = 'FAIL' WHERE id = ?", other.videoId);
    expect(await searchFaces(t.sql, theirs, [query], 10)).toEqual([]);
  });
});

describe('searchFaces after the face-model migration (SQLite)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((c) => c()));
  });

  it('keeps faces indexed before face-api as faceres rows that photo search skips', async () => {
    const { dir, cleanup } = await tempDir('reelsync-face-search-');
    cleanups.push(cleanup);
    const before = openSqlite(join(dir, 'service.db'), serviceMigrations.slice(0, 3));
    const beforeSql = new SqliteSql(before);
    const accountId = await newAccount(beforeSql);
    const { videoId } = await indexedVideo(beforeSql, accountId, 1);
    await addFace(
      beforeSql,
      videoId,
      0,
      Float32Array.from({ length: 1024 }, (_, i) => Math.cos(i)),
    );
    before.close();
    const db = openServiceDb(dir);
    try {
      expect(db.prepare('SELECT model, length(descriptor) AS bytes FROM faces').all()).toEqual([
        { model: HUMAN_FACERES_MODEL, bytes: 4096 },
      ]);
      expect(await searchFaces(new SqliteSql(db), accountId, [query], 10)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
