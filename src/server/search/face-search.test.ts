import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { openSqlite } from '../../common/sqlite';
import { descriptorToBlob, FACE_MODEL, HUMAN_FACERES_MODEL } from '../indexer/analyzers/face-match';
import { openServiceDb, type Db } from '../storage/db';
import { serviceMigrations } from '../storage/migrations';
import { searchFaces } from './face-search';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function dataDir(): Promise<string> {
  const { dir, cleanup } = await tempDir('reelsync-face-search-');
  cleanups.push(cleanup);
  return dir;
}

/** One account with one indexed video of `segments` segments; returns the account and video ids. */
function seedVideo(db: Db, segments: number): { accountId: number; videoId: number } {
  const accountId = Number(
    db.prepare("INSERT INTO accounts (name, webhook_secret, created_at) VALUES ('a', 's', 0)").run().lastInsertRowid,
  );
  const folderId = Number(
    db.prepare("INSERT INTO folders (account_id, name, created_at) VALUES (?, 'f', 0)").run(accountId).lastInsertRowid,
  );
  const videoId = Number(
    db
      .prepare(
        `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size, sha256, created_at)
         VALUES ('v1', ?, ?, 'clip', 'clip.mp4', 'PARSE', 'b', 'video/mp4', 1, 'x', 0)`,
      )
      .run(accountId, folderId).lastInsertRowid,
  );
  for (let i = 0; i < segments; i++) {
    db.prepare('INSERT INTO segments (video_id, idx, start_time, end_time, keyframe_blob) VALUES (?, ?, ?, ?, ?)').run(
      videoId,
      i,
      i,
      i + 1,
      `keyframes/v1/${i}.jpg`,
    );
  }
  return { accountId, videoId };
}

function addFace(db: Db, videoId: number, segment: number, descriptor: Float32Array, model?: string): void {
  if (model === undefined) {
    db.prepare(
      "INSERT INTO faces (video_id, segment_idx, descriptor, box, score) VALUES (?, ?, ?, '[0,0,1,1]', 0.9)",
    ).run(videoId, segment, descriptorToBlob(descriptor));
  } else {
    db.prepare(
      "INSERT INTO faces (video_id, segment_idx, descriptor, model, box, score) VALUES (?, ?, ?, ?, '[0,0,1,1]', 0.9)",
    ).run(videoId, segment, descriptorToBlob(descriptor), model);
  }
}

const query = Float32Array.from({ length: 128 }, (_, i) => Math.sin(i) / 10);
function moved(distance: number): Float32Array {
  const d = Float32Array.from(query);
  d[3] = (d[3] ?? 0) + distance;
  return d;
}

describe('searchFaces', () => {
  it('ranks by face-api distance, and a face stored by another model is never compared', async () => {
    const db = openServiceDb(await dataDir());
    try {
      const { accountId, videoId } = seedVideo(db, 4);
      addFace(db, videoId, 0, moved(0.8), FACE_MODEL);
      addFace(db, videoId, 1, moved(0.2), FACE_MODEL);
      addFace(
        db,
        videoId,
        2,
        Float32Array.from({ length: 1024 }, () => 0.1),
        HUMAN_FACERES_MODEL,
      );
      // Same length as a face-api descriptor, other model: still not comparable.
      addFace(db, videoId, 3, query, 'other:128');
      const hits = searchFaces(db, accountId, [query], 10);
      expect(hits.map((h) => h.keyframeBlob)).toEqual(['keyframes/v1/1.jpg', 'keyframes/v1/0.jpg']);
      expect(hits[0]!.score).toBeGreaterThan(0.95);
      expect(hits[1]!.score).toBeLessThan(0.1);
    } finally {
      db.close();
    }
  });

  it('keeps faces indexed before face-api as faceres rows that photo search skips', async () => {
    const dir = await dataDir();
    const before = openSqlite(join(dir, 'service.db'), serviceMigrations.slice(0, 3));
    const { accountId, videoId } = seedVideo(before, 1);
    addFace(
      before,
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
      expect(searchFaces(db, accountId, [query], 10)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
