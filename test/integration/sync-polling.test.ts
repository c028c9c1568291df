import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { needsPolling } from '../../src/main/sync/watcher';
import { fixturePath } from '../fixtures/media';
import { syncSuite, untilFileStatus } from '../helpers/sync-engine';

const suite = syncSuite('reelsync-polling-');

describe('watching by polling (network drives)', () => {
  it('chooses events on a local disk', async () => {
    expect(await needsPolling(suite.dir)).toBe(false);
  });

  it('picks up a new file in a folder watched by polling and uploads it', { timeout: 60_000 }, async () => {
    const folder = join(suite.dir, 'nas');
    await mkdir(folder, { recursive: true });
    const t = await suite.engine('client', { stableMs: 300 });
    try {
      const added = await t.engine.addFolder({ path: folder, polling: 'on' });
      expect(added.polling).toBe('on');
      await t.engine.scan();
      await t.engine.watch();
      const target = join(folder, 'B001.mp4');
      const indexed = untilFileStatus(t.events, target, 'indexed');
      await copyFile(fixturePath('hevcMov'), target);
      await indexed;
      expect((await t.client.listVideos({ page: 1, size: 10 })).total_count).toBe(1);
    } finally {
      await t.stop();
    }
  });
});
