import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProxyStore } from '../../src/main/proxy/proxy-store';
import { clipAt } from '../fixtures/generated-clips';
import { longProresTake } from '../fixtures/test-clips';
import { syncSuite, type TestEngine } from '../helpers/sync-engine';

const suite = syncSuite('reelsync-proxy-jobs-');

/** A 20 s ProRes take at 12 fps: long enough to be caught in the middle of its proxy, quick to index. */
function longTake(folder: string, name: string, timecode: string): Promise<string> {
  return clipAt(longProresTake(timecode), join(folder, name));
}

/** Resolves on the first proxy progress past 5 % (the encode is well under way). */
function midProxy(t: TestEngine): Promise<{ fileId: number; hash: string }> {
  return new Promise((resolve) => {
    const off = t.events.on('sync:proxy-progress', (p) => {
      if (p.percent > 5 && p.percent < 90) {
        off();
        resolve(p);
      }
    });
  });
}

describe('proxy jobs', () => {
  it('resume after a quit in the middle, and after a crash that left a partial output and an active row', async () => {
    const folder = join(suite.dir, 'footage-quit');
    await longTake(folder, 'Q001C001.mov', '10:00:00:00');
    let t = await suite.engine('quit');
    await t.engine.addFolder({ path: folder });
    await t.engine.scan();
    const { hash } = await midProxy(t);
    await t.stop();
    const cacheDir = join(suite.dir, 'quit', 'proxies', hash);
    // A quit removes what it had written: the next run starts that file again.
    expect(existsSync(cacheDir) ? await readdir(cacheDir) : []).toEqual([]);

    t = await suite.engine('quit');
    try {
      const store = new ProxyStore(t.db);
      expect(store.get(hash)?.state).toBe('making');
      // What a crash leaves: the job still active, a partial proxy on disk.
      await t.engine.stop();
      t.db.prepare("UPDATE jobs SET state = 'active' WHERE kind = 'proxy' AND target = ?").run(hash);
      await mkdir(cacheDir, { recursive: true });
      await writeFile(join(cacheDir, '.partial-Q001C001.mp4'), 'half a proxy');
    } finally {
      await t.stop();
    }
    t = await suite.engine('quit');
    try {
      await t.engine.waitForIdle();
      const file = t.engine.files(1, 10).files[0];
      expect(file?.status).toBe('indexed');
      const row = new ProxyStore(t.db).get(hash);
      expect(row).toMatchObject({ state: 'removed', video_no: file?.videoNo });
      expect(existsSync(cacheDir)).toBe(false);
      const tagged = await t.client.listVideos({ tag: `sha256:${hash}`, page: 1, size: 10 });
      expect(tagged.total_count).toBe(1);
    } finally {
      await t.stop();
    }
  }, 90_000);

  it('cancels a proxy being made: nothing left in the cache, nothing uploaded', async () => {
    const folder = join(suite.dir, 'footage-cancel');
    await longTake(folder, 'C001C001.mov', '11:00:00:00'); // other bytes, other hash
    const t = await suite.engine('cancel');
    try {
      await t.engine.addFolder({ path: folder });
      await t.engine.scan();
      const { fileId, hash } = await midProxy(t);
      t.engine.cancel(fileId);
      await t.engine.waitForIdle();
      expect(t.engine.files(1, 10).files[0]?.status).toBe('cancelled');
      expect(existsSync(join(suite.dir, 'cancel', 'proxies', hash))).toBe(false);
      expect((await t.client.listVideos({ tag: `sha256:${hash}`, page: 1, size: 10 })).total_count).toBe(0);
    } finally {
      await t.stop();
    }
  }, 60_000);
});
