import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/main/log';
import { removeFromLibrary } from '../../src/main/sync/remove-from-library';
import { fixturePath } from '../fixtures/media';
import { syncSuite, untilFileStatus } from '../helpers/sync-engine';

const suite = syncSuite('reelsync-rename-');

/** Issue 28 item 2: renames leave no ghosts; a file deleted from disk still opens from the library and can be removed. */
describe('renamed, moved and deleted files', () => {
  it('follows a rename and a move with the same row content, and lets a deleted file be removed', async () => {
    const folder = join(suite.dir, 'shoot');
    await mkdir(join(folder, 'day2'), { recursive: true });
    const t = await suite.engine('client');
    const rows = () => t.engine.files(1, 50).files.map((f) => ({ path: f.path, status: f.status, videoNo: f.videoNo }));
    try {
      await t.engine.addFolder({ path: folder });
      const first = join(folder, 'A001.mp4');
      const indexed = untilFileStatus(t.events, first, 'indexed');
      await copyFile(fixturePath('phoneH264Mp4'), first);
      await copyFile(fixturePath('notVideoMp4'), join(folder, 'notes.mp4'));
      await t.engine.scan();
      await indexed;
      await t.engine.waitForIdle();
      const videoNo = rows().find((r) => r.path === first)?.videoNo;
      expect(videoNo).toMatch(/\S/);

      // Renamed, then moved into a subfolder: one row, at the new place, same video, nothing uploaded again.
      await rename(first, join(folder, 'harbour.mp4'));
      await t.engine.scan();
      await t.engine.waitForIdle();
      await rename(join(folder, 'harbour.mp4'), join(folder, 'day2', 'harbour.mp4'));
      await t.engine.scan();
      await t.engine.waitForIdle();
      const moved = join(folder, 'day2', 'harbour.mp4');
      expect(rows().filter((r) => r.videoNo !== null)).toEqual([{ path: moved, status: 'indexed', videoNo }]);
      expect((await t.client.listVideos({ page: 1, size: 10 })).total_count).toBe(1);

      // Deleted from disk: the row stays, says so, still names its library video (it opens from the library).
      await rm(moved);
      await t.engine.scan();
      expect(rows().find((r) => r.path === moved)).toEqual({ path: moved, status: 'deleted', videoNo });
      const o = { db: t.db, client: t.client, logger: createLogger('test') };
      const gone = t.engine.files(1, 50).files.find((f) => f.path === moved);
      expect(await removeFromLibrary(o, gone?.id ?? 0)).toEqual({ videoNo, untracked: 0 });
      expect((await t.client.listVideos({ page: 1, size: 10 })).total_count).toBe(0);
      expect(rows().find((r) => r.path === moved)).toBeUndefined();

      // A skipped file deleted from disk never reached the library: Remove forgets its row, nothing else.
      await rm(join(folder, 'notes.mp4'));
      await t.engine.scan();
      const ghost = t.engine.files(1, 50).files.find((f) => f.path.endsWith('notes.mp4'));
      expect(ghost?.status).toBe('deleted');
      expect(await removeFromLibrary(o, ghost?.id ?? 0)).toEqual({ videoNo: null, untracked: 0 });
      expect(t.engine.files(1, 50).total).toBe(0);
    } finally {
      await t.stop();
    }
  }, 90_000);
});
