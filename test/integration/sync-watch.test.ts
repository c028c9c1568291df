import { open, readFile, rename, mkdir, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { syncSuite, untilFileStatus } from '../helpers/sync-engine';

const suite = syncSuite('reelsync-watch-');

describe('watching a folder', () => {
  it('uploads a slowly written file once, complete; renames and copies do not upload again; survives a service restart', async () => {
    const folder = join(suite.dir, 'watched');
    await mkdir(folder, { recursive: true });
    const t = await suite.engine('client', { stableMs: 800 });
    try {
      await t.engine.addFolder({ path: folder });
      await t.engine.watch();
      await t.engine.scan();

      // A camera-card copy: the file grows in small pieces over ~2 s.
      const source = await readFile(fixturePath('phoneH264Mp4'));
      const target = join(folder, 'A001.mp4');
      const indexed = untilFileStatus(t.events, target, 'indexed');
      const fh = await open(target, 'w');
      const step = Math.ceil(source.length / 10);
      for (let at = 0; at < source.length; at += step) {
        await fh.write(source.subarray(at, at + step));
        await fh.sync();
        await new Promise((r) => setTimeout(r, 200));
      }
      await fh.close();
      await indexed;
      let listed = await t.client.listVideos({ page: 1, size: 50 });
      expect(listed.total_count).toBe(1);
      expect(listed.videos[0]?.size).toBe(source.length);

      // Renamed, then copied elsewhere in the tree: same content, no new upload.
      await rename(target, join(folder, 'renamed.mp4'));
      await mkdir(join(folder, 'backup'));
      await copyFile(join(folder, 'renamed.mp4'), join(folder, 'backup', 'copy.mp4'));
      await t.engine.scan();
      await t.engine.waitForIdle();
      const views = t.engine.files(1, 50).files;
      expect(views.find((f) => f.path.endsWith('backup/copy.mp4'))?.status).toBe('indexed');
      expect(views.find((f) => f.path.endsWith('renamed.mp4'))?.status).toBe('indexed');
      // The old name leaves no ghost row: the renamed row is the file (issue 28 item 2).
      expect(views.find((f) => f.path === target)).toBeUndefined();
      listed = await t.client.listVideos({ page: 1, size: 50 });
      expect(listed.total_count).toBe(1);

      // The service goes away while a new file waits: the upload is retried until it is back.
      await suite.service.kill();
      const second = join(folder, 'B002.mkv');
      const secondIndexed = untilFileStatus(t.events, second, 'indexed');
      await copyFile(fixturePath('vp9Mkv'), second);
      await t.engine.scan();
      await new Promise((r) => setTimeout(r, 1500));
      await suite.service.restart();
      await secondIndexed;
      listed = await t.client.listVideos({ page: 1, size: 50 });
      expect(listed.total_count).toBe(2);
    } finally {
      await t.stop();
    }
  }, 90_000);
});
