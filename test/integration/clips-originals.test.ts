import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { promisify } from 'node:util';
import { readOriginalIdentity } from '../../src/main/media/original-identity';
import type { ClipRow } from '../../src/main/library/clips-store';
import { ClipsStore } from '../../src/main/library/clips-store';
import { cameraOriginalPath, type CameraOriginalName } from '../fixtures/camera-originals';
import { startLibrary, type TestLibrary } from '../helpers/library';
import { tempDir } from '../helpers/temp';

const run = promisify(execFile);

let dir: string;
let cleanup: () => Promise<void>;
let local: TestLibrary;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-clip-originals-'));
  local = await startLibrary(dir, undefined);
});
afterAll(async () => {
  await local?.stop();
  await cleanup?.();
});

/** Saves a clip of a camera original on this computer and waits for the real cut. */
async function cutFrom(
  name: CameraOriginalName,
  start: number,
  end: number,
  format: ClipRow['format'],
): Promise<ClipRow & { path: string }> {
  local.feature.queue.pause('user');
  const saved = local.feature.clips.save({
    videoNo: `v-${name}`,
    videoName: `${name}.mp4`,
    start,
    end,
    handles: 0,
    mode: 'accurate',
    format,
    query: '',
    text: '',
    tags: [],
    notes: '',
  });
  new ClipsStore(local.db).setSource(saved.id, cameraOriginalPath(name), null);
  local.feature.queue.resume();
  const clip = await local.feature.clips.settled(saved.id);
  expect(clip.error).toBeNull();
  if (!clip.path) throw new Error('no clip file');
  return { ...clip, path: clip.path };
}

async function frameCount(path: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-count_frames', '-show_entries', 'stream=nb_read_frames'],
    ...['-of', 'csv=p=0', path],
  ]);
  return parseInt(stdout.trim(), 10);
}

/** MD5 of one decoded picture: frame `n` of `path`. */
async function frameMd5(path: string, n: number): Promise<string> {
  const { stdout } = await run('ffmpeg', [
    ...['-v', 'error', '-i', path, '-map', '0:v:0', '-vf', `select=eq(n\\,${n})`, '-frames:v', '1'],
    ...['-pix_fmt', 'yuv422p10le', '-f', 'md5', '-'],
  ]);
  return stdout.trim();
}

describe('a clip saved from a hit is cut from the camera original', () => {
  test('ProRes in a MOV clip: the original frames copied (all-intra), full size, timecode original + in', async () => {
    const clip = await cutFrom('proresMov', 1, 2, 'mov');
    const id = await readOriginalIdentity(clip.path);
    expect([id.codec, id.profile, id.width, id.height]).toEqual(['prores', 'HQ', 640, 360]);
    expect(id.startTimecode).toBe('01:00:01:00');
    expect(await frameCount(clip.path)).toBe(25);
    expect(await frameMd5(clip.path, 0)).toBe(await frameMd5(cameraOriginalPath('proresMov'), 25));
  });

  test('ProRes in an MP4 clip is H.264 (MP4 takes no ProRes), still at the original timecode', async () => {
    const clip = await cutFrom('proresMov', 0.4, 1.4, 'mp4');
    const id = await readOriginalIdentity(clip.path);
    expect([id.codec, id.startTimecode, id.width]).toEqual(['h264', '01:00:00:10', 640]);
    expect(await frameCount(clip.path)).toBe(25);
  });

  test('DNxHD in MXF: copied; MPEG-2 long-GOP: copied from a keyframe, re-encoded between keyframes', async () => {
    const dnx = await readOriginalIdentity((await cutFrom('dnxhdMxf', 0.52, 1.52, 'mov')).path);
    expect([dnx.codec, dnx.startTimecode, dnx.width]).toEqual(['dnxhd', '02:10:20:18', 1280]);
    // GOP of 12 at 25 fps: frame 12 (0.48 s) is a keyframe, frame 5 (0.2 s) is not.
    const onKey = await cutFrom('mpeg2Mxf', 0.48, 1.44, 'mov');
    const onKeyId = await readOriginalIdentity(onKey.path);
    expect([onKeyId.codec, onKeyId.startTimecode]).toEqual(['mpeg2video', '03:30:00:24']);
    // A copy starts exactly on the keyframe; its end is cut at a packet, and long-GOP packets come in decode order.
    expect(Math.abs((await frameCount(onKey.path)) - 24)).toBeLessThanOrEqual(1);
    const between = await cutFrom('mpeg2Mxf', 0.2, 1.2, 'mov');
    const betweenId = await readOriginalIdentity(between.path);
    expect([betweenId.codec, betweenId.startTimecode]).toEqual(['h264', '03:30:00:17']);
    expect(await frameCount(between.path)).toBe(25);
  });

  test('AVCHD .MTS (no timecode of its own): an MP4 clip from the video time, 29.97', async () => {
    const clip = await cutFrom('avchdMts', 1, 2, 'mp4');
    const id = await readOriginalIdentity(clip.path);
    expect([id.codec, id.rate, id.startTimecode]).toEqual(['h264', '30000/1001', '00:00:01:00']);
    expect(Math.abs((await frameCount(clip.path)) - 30)).toBeLessThanOrEqual(1);
  });
});
