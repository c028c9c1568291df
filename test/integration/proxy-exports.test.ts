import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAMERA_ORIGINALS, cameraOriginalPath } from '../fixtures/camera-originals';
import { startLibrary, syncOriginal, type TestLibrary } from '../helpers/library';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

let service: TestService;
let dir: string;
let cleanup: () => Promise<void>;
let local: TestLibrary;
let original: string;
let videoNo: string;

const testService = useService({ config: { indexer: { paused: true } } });
beforeAll(async () => {
  service = testService();
  ({ dir, cleanup } = await tempDir('reelsync-proxy-exports-'));
  const folder = join(dir, 'shoot');
  await mkdir(folder);
  original = join(folder, CAMERA_ORIGINALS.proresMov.file);
  await copyFile(cameraOriginalPath('proresMov'), original);
  // The library refuses ProRes: the engine uploads an H.264 proxy under the original's content hash.
  videoNo = await syncOriginal(dir, folder, service);
  local = await startLibrary(dir, service);
}, 120_000);

afterAll(async () => {
  await local?.stop();
  await cleanup?.();
});

describe('a video searched through its proxy leads back to the camera original', () => {
  test('a saved clip is cut from the ProRes original and every export names it at its timecode', async () => {
    const c = local.feature.clips;
    const clip = await c.settled(
      c.save({
        videoNo,
        videoName: 'A001C003.mp4',
        start: 1,
        end: 2,
        handles: 0.2,
        mode: 'accurate',
        format: 'mov',
        query: 'bars',
        text: '',
        tags: [],
        notes: '',
      }).id,
    );
    expect(clip.error).toBeNull();
    expect(clip.source_path).toBe(original);
    const cut = await local.feature.identities.identityOf(clip.path ?? '');
    expect([cut?.codec, cut?.startTimecode]).toEqual(['prores', '01:00:00:20']); // 1 s - 0.2 s at 25 fps
    const { content } = await c.render('edl', [clip.id]);
    const event = content
      .split('\r\n')
      .find((l) => /^001 /.test(l))
      ?.split(/\s+/);
    expect(event?.[1]).toBe('A001');
    expect(event?.slice(4, 6)).toEqual(['01:00:00:20', '01:00:02:05']);
    expect(content).toContain('* FROM CLIP NAME: A001C003.mov');
    expect(content).toContain(`* SOURCE FILE: ${original}`);
    const otio = JSON.parse((await c.render('otio', [clip.id])).content) as {
      tracks: { children: { children: { media_references: { DEFAULT_MEDIA: { target_url: string } } }[] }[] };
    };
    expect(otio.tracks.children[0]?.children[0]?.media_references.DEFAULT_MEDIA.target_url).toMatch(/A001C003\.mov$/);
  });
});
