import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsPolling } from '../../src/main/sync/watcher';
import { fixturePath } from '../fixtures/media';
import { startService, type TestService } from '../helpers/service';
import { startEngine } from '../helpers/sync-engine';
import { tempDir } from '../helpers/temp';

let service: TestService;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  service = await startService({ credits: 100 });
  ({ dir, cleanup } = await tempDir('reelsync-polling-'));
});
afterAll(async () => {
  await service?.stop();
  await cleanup?.();
});

describe('watching by polling (network drives)', () => {
  it('chooses events on a local disk', async () => {
    expect(await needsPolling(dir)).toBe(false);
  });

  it('picks up a new file in a folder watched by polling and uploads it', { timeout: 60_000 }, async () => {
    const folder = join(dir, 'nas');
    await mkdir(folder, { recursive: true });
    const t = await startEngine(join(dir, 'client'), service.baseUrl, service.key, { stableMs: 300 });
    try {
      const added = await t.engine.addFolder({ path: folder, polling: 'on' });
      expect(added.polling).toBe('on');
      await t.engine.scan();
      await t.engine.watch();
      const target = join(folder, 'B001.mp4');
      const indexed = new Promise<void>((resolve) => {
        const off = t.events.on('sync:file-changed', (f) => {
          if (f.path === target && f.status === 'indexed') {
            off();
            resolve();
          }
        });
      });
      await copyFile(fixturePath('hevcMov'), target);
      await indexed;
      expect((await t.client.listVideos({ page: 1, size: 10 })).total_count).toBe(1);
    } finally {
      await t.stop();
    }
  });
});
