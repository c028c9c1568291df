import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProxySettings } from '../../src/main/proxy/proxy-settings';
import { ProxyStore } from '../../src/main/proxy/proxy-store';
import { CAMERA_ORIGINALS, cameraOriginalPath, type CameraOriginalName } from '../fixtures/camera-originals';
import { fpsOf, probeProxy } from '../helpers/proxy-probe';
import { syncSuite } from '../helpers/sync-engine';

const suite = syncSuite('reelsync-camera-');
const NAMES = Object.keys(CAMERA_ORIGINALS) as CameraOriginalName[];

describe('camera originals synced through the embedded service', () => {
  it('proxies what the library refuses, uploads it under the original name and hash, keeps the timecode', async () => {
    const folder = join(suite.dir, 'shoot');
    await mkdir(folder, { recursive: true });
    for (const name of NAMES) await copyFile(cameraOriginalPath(name), join(folder, CAMERA_ORIGINALS[name].file));
    await writeFile(join(folder, 'A003C002.braw'), 'not decodable by ffmpeg');
    const t = await suite.engine('keep');
    try {
      new ProxySettings(t.db).set({ keep: true });
      await t.engine.addFolder({ path: folder });
      expect((await t.engine.scan()).files).toBe(NAMES.length + 1);
      await t.engine.waitForIdle();
      const { files } = t.engine.files(1, 100);
      const byName = new Map(files.map((f) => [basename(f.path), f]));
      expect(byName.get('A003C002.braw')).toMatchObject({
        status: 'skipped',
        reason: expect.stringMatching(/Blackmagic RAW.*Blackmagic RAW Player or DaVinci Resolve/) as unknown,
      });
      const proxies = new ProxyStore(t.db);
      for (const name of NAMES) {
        const want = CAMERA_ORIGINALS[name];
        const file = byName.get(want.file);
        expect(file?.status, want.file).toBe('indexed');
        const hash = file?.hash ?? '';
        const videoNo = file?.videoNo ?? '';
        const meta = await t.client.getMetadata(videoNo);
        // The library knows the video by the original's content hash, whichever bytes were sent.
        expect(meta?.tags).toContain(`sha256:${hash}`);
        const proxy = proxies.get(hash);
        if (want.acceptable) {
          expect(proxy, want.file).toBeUndefined();
          expect(meta?.original_name).toBe(want.file);
          continue;
        }
        const stem = want.file.replace(/\.[^.]+$/, '');
        expect(meta?.original_name).toBe(`${stem}.mp4`);
        expect(proxy).toMatchObject({ state: 'uploaded', video_no: videoNo, width: 1280, encoder: 'libx264' });
        expect(proxies.byVideo(videoNo)?.hash).toBe(hash);
        expect(existsSync(proxy?.path ?? '')).toBe(true);
        const got = await probeProxy(proxy?.path ?? '');
        const frame = 1 / fpsOf(want.fps);
        expect(got).toMatchObject({ codec: 'h264', profile: 'High', pixFmt: 'yuv420p', rate: want.fps });
        expect(got.width).toBe(Math.min(1280, want.width));
        expect(got.height).toBe(Math.round((want.height * (got.width ?? 0)) / want.width / 2) * 2);
        expect(Math.abs(got.duration - want.seconds), want.file).toBeLessThanOrEqual(frame + 1e-6);
        expect(got.timecodes).toEqual(want.timecode ? [want.timecode] : []);
        expect(got.audio).toEqual(want.audio ? { codec: 'aac', channels: 2 } : null);
        expect(got.container).toContain('mp4');
      }
    } finally {
      await t.stop();
    }
  }, 120_000);
});
