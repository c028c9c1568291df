import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture } from '../fixtures/media';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { startEngine } from '../helpers/sync-engine';
import { tempDir } from '../helpers/temp';

let service: TestService;
let dir: string;
let cleanup: () => Promise<void>;

const testService = useService({ credits: 100 });
beforeAll(async () => {
  service = testService();
  ({ dir, cleanup } = await tempDir('reelsync-history-'));
});
afterAll(async () => {
  await cleanup?.();
});

describe('upload history against the real service', () => {
  it('records each finished transfer with its bytes, time and result, and a refused one with the reason', async () => {
    const good = join(dir, 'good');
    const refused = join(dir, 'refused');
    await mkdir(good, { recursive: true });
    await mkdir(refused, { recursive: true });
    const sentPath = await copyFixture('phoneH264Mp4', good);
    const refusedPath = await copyFixture('hevcMov', refused);

    const t = await startEngine(join(dir, 'client'), service.baseUrl, service.key);
    try {
      await t.engine.addFolder({ path: good });
      // A library folder this account does not own: the service refuses the upload (400), for good.
      await t.engine.addFolder({ path: refused, folderId: 987654 });
      await t.engine.scan();
      await t.engine.waitForIdle();

      const { entries, total, failed } = t.engine.history.page(1, 50);
      expect(total).toBe(2);
      expect(failed).toBe(1);
      const sent = entries.find((e) => e.path === sentPath);
      const { size } = t.engine.files(1, 10).files.find((f) => f.path === sentPath) ?? { size: -1 };
      expect(sent).toMatchObject({
        result: 'uploaded',
        bytes: size,
        error: null,
        videoNo: expect.any(String) as unknown,
      });
      expect(sent?.ms).toBeGreaterThan(0);
      const bad = entries.find((e) => e.path === refusedPath);
      expect(bad).toMatchObject({
        result: 'failed',
        videoNo: null,
        error: expect.stringContaining('987654') as unknown,
      });
      // The uploaded one is really in the library, under the video number the history gives.
      const listed = await t.client.listVideos({ page: 1, size: 10 });
      expect(listed.videos.map((v) => v.videoNo)).toEqual([sent?.videoNo]);

      // Paging: newest first, one per page.
      const first = t.engine.history.page(1, 1);
      const second = t.engine.history.page(2, 1);
      expect(first.entries).toHaveLength(1);
      expect(second.entries[0]?.id).not.toBe(first.entries[0]?.id);
      expect(first.entries[0]?.finishedAt).toBeGreaterThanOrEqual(second.entries[0]?.finishedAt ?? Infinity);

      // The status counts the refused file as failed (what the sidebar and status bar show).
      expect(t.engine.status().byStatus.failed).toBe(1);
    } finally {
      await t.stop();
    }
  });

  it('watches a single video file on its own: it is uploaded, its neighbours are not', async () => {
    const shoot = join(dir, 'shoot');
    await mkdir(shoot, { recursive: true });
    const one = await copyFixture('vp9Mkv', shoot);
    await copyFixture('phoneH264Mp4', shoot, 'neighbour.mp4');
    const t = await startEngine(join(dir, 'client-single'), service.baseUrl, service.key);
    try {
      const watch = await t.engine.addFolder({ path: one });
      expect(watch.path).toBe(one);
      expect(await t.engine.scan([watch.id])).toMatchObject({ files: 1, new: 1, errors: 0 });
      await t.engine.waitForIdle();
      expect(t.engine.files(1, 10).files.map((f) => [f.path, f.status])).toEqual([[one, 'indexed']]);
      expect(t.engine.history.page(1, 10).entries.map((e) => [e.path, e.result])).toEqual([[one, 'uploaded']]);
      await expect(t.engine.addFolder({ path: join(shoot, 'missing.mp4') })).rejects.toThrow(/not a folder or a file/);
    } finally {
      await t.stop();
    }
  });
});
