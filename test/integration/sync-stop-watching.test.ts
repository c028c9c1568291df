import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { syncSuite, untilFileStatus } from '../helpers/sync-engine';

const suite = syncSuite('reelsync-stop-watch-');

/** Issue 28 item 1: stopping a watch only stops noticing changes; the library keeps every file it holds. */
describe('stopping a watch folder', () => {
  it('keeps its files in the library, notices nothing new until watched again, and resumes by Undo or by adding it again', async () => {
    const folder = join(suite.dir, 'card');
    await mkdir(folder, { recursive: true });
    const t = await suite.engine('client');
    try {
      const watched = await t.engine.addFolder({ path: folder });
      expect(watched.stoppedAt).toBeNull();
      const first = join(folder, 'A001.mp4');
      const indexed = untilFileStatus(t.events, first, 'indexed');
      await copyFile(fixturePath('phoneH264Mp4'), first);
      await t.engine.watch();
      await t.engine.scan();
      await indexed;

      expect(await t.engine.stopFolder(watched.id)).toBe(true);
      expect(await t.engine.stopFolder(watched.id)).toBe(false);
      expect(t.engine.folders().map((f) => [f.id, typeof f.stoppedAt])).toEqual([[watched.id, 'number']]);
      // Its file stays, as it was, with its local path (it plays from this computer).
      const kept = t.engine.files(1, 50).files;
      expect(kept.map((f) => [f.path, f.status])).toEqual([[first, 'indexed']]);
      expect((await t.client.listVideos({ page: 1, size: 10 })).total_count).toBe(1);

      // New footage there is not noticed: neither by a scan nor by a live watch (none runs for it).
      const later = join(folder, 'A002.mkv');
      await copyFile(fixturePath('vp9Mkv'), later);
      await t.engine.watch();
      const report = await t.engine.scan();
      expect(report.folders).toBe(0);
      await new Promise((r) => setTimeout(r, 1200));
      expect(t.engine.files(1, 50).total).toBe(1);

      // Undo / "Watch again": watched, and what arrived meanwhile is found by the scan that follows.
      const laterIndexed = untilFileStatus(t.events, later, 'indexed');
      expect(t.engine.resumeFolder(watched.id).stoppedAt).toBeNull();
      await t.engine.watch();
      await t.engine.scan([watched.id]);
      await laterIndexed;
      expect(t.engine.files(1, 50).files.map((f) => f.status)).toEqual(['indexed', 'indexed']);

      // Adding the same folder again after a stop watches it again (same row, same files).
      await t.engine.stopFolder(watched.id);
      const again = await t.engine.addFolder({ path: folder });
      expect(again).toMatchObject({ id: watched.id, stoppedAt: null });
      expect(t.engine.files(1, 50).total).toBe(2);
      expect(() => t.engine.resumeFolder(9999)).toThrow(/No watched folder/);
    } finally {
      await t.stop();
    }
  }, 90_000);
});
