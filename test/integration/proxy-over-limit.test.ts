import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '../../src/shared/api-types';
import { ProxySettings } from '../../src/main/proxy/proxy-settings';
import { ProxyStore } from '../../src/main/proxy/proxy-store';
import { makeOverSizeMov } from '../fixtures/camera-originals';
import { probeProxy } from '../helpers/proxy-probe';
import { syncSuite } from '../helpers/sync-engine';

const suite = syncSuite('reelsync-over-limit-');

describe('a take over the 3 GB upload limit', () => {
  it('is proxied under the limit and uploaded in its place', async () => {
    const folder = join(suite.dir, 'footage');
    await mkdir(folder, { recursive: true });
    const take = await makeOverSizeMov(folder);
    const t = await suite.engine('client');
    try {
      expect(take.size).toBeGreaterThan(UPLOAD_LIMITS.maxBytes);
      new ProxySettings(t.db).set({ keep: true });
      await t.engine.addFolder({ path: folder });
      await t.engine.scan();
      await t.engine.waitForIdle();
      const file = t.engine.files(1, 10).files[0];
      expect(file?.status).toBe('indexed');
      const proxy = new ProxyStore(t.db).get(file?.hash ?? '');
      expect(proxy).toMatchObject({ state: 'uploaded', video_no: file?.videoNo });
      expect(proxy?.size).toBeLessThan(UPLOAD_LIMITS.maxBytes);
      const got = await probeProxy(proxy?.path ?? '');
      expect(got).toMatchObject({ codec: 'h264', width: 1280, height: 720, rate: '25/1', timecodes: [take.timecode] });
      expect(Math.abs(got.duration - take.frames / take.fps)).toBeLessThanOrEqual(1 / take.fps + 1e-6);
      const meta = await t.client.getMetadata(file?.videoNo ?? '');
      expect(meta?.original_name).toBe('E005C001.mp4');
    } finally {
      await t.stop();
      await take.remove();
    }
  }, 180_000);
});
