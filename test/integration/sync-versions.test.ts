import { copyFile, mkdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { syncSuite, untilFileStatus, type TestEngine } from '../helpers/sync-engine';

const suite = syncSuite('reelsync-versions-');

/** Resolves with the file's video number once it is indexed as a video other than `notVideo`. */
async function indexedAs(t: TestEngine, path: string, notVideo?: string): Promise<string> {
  const videoOf = (id: number): string | null => t.engine.view(id)?.videoNo ?? null;
  const f = await untilFileStatus(t.events, path, 'indexed', (f) => {
    const videoNo = videoOf(f.id);
    return videoNo !== null && videoNo !== notVideo;
  });
  return videoOf(f.id) ?? '';
}

describe('a file modified after it was synced', () => {
  it(
    'uploads as a new version, marks the old content superseded and keeps the old video in the library',
    { timeout: 40_000 },
    async () => {
      const folder = join(suite.dir, 'footage');
      await mkdir(folder, { recursive: true });
      const target = join(folder, 'A002.mp4');
      await copyFile(fixturePath('phoneH264Mp4'), target);
      const t = await suite.engine('client', { stableMs: 400 });
      try {
        await t.engine.addFolder({ path: folder });
        const first = indexedAs(t, target);
        await t.engine.scan();
        const oldVideo = await first;

        // The editor re-exports over the same name: new content, new mtime.
        await copyFile(fixturePath('drawnTextMp4'), target);
        const later = new Date(Date.now() + 5_000);
        await utimes(target, later, later);
        const second = indexedAs(t, target, oldVideo);
        await t.engine.scan();
        const newVideo = await second;

        expect(newVideo).not.toBe(oldVideo);
        const listed = await t.client.listVideos({ page: 1, size: 50 });
        expect(listed.videos.map((v) => v.videoNo).sort()).toEqual([oldVideo, newVideo].sort());
        const rows = t.db.prepare('SELECT video_no, superseded_by FROM contents ORDER BY created_at').all() as {
          video_no: string;
          superseded_by: string | null;
        }[];
        const oldRow = rows.find((r) => r.video_no === oldVideo);
        const newRow = rows.find((r) => r.video_no === newVideo);
        expect(oldRow?.superseded_by).toBeTruthy();
        expect(newRow?.superseded_by).toBeNull();
      } finally {
        await t.stop();
      }
    },
  );
});
