import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { picturesDiffer } from './analyzers/ocr';
import { runTool } from './process';
import { detectSceneCuts } from './scene-cuts';
import { laterFrameTime, materializeFrames } from './segment-frames';
import { planSegments, type PlannedSegment } from './segment-plan';

let dir = '';
let cleanup: () => Promise<void> = async () => {};
let clip = '';

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-segment-frames-'));
  clip = join(dir, 'moving.mp4');
  // 12 s of a moving test pattern with a keyframe every second.
  await runTool('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=10',
    '-t',
    '12',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '10',
    '-pix_fmt',
    'yuv420p',
    clip,
  ]);
});

afterAll(() => cleanup());

describe('laterFrameTime', () => {
  it('is the middle of the segment when that is far enough from the keyframe', () => {
    expect(laterFrameTime({ start: 4, end: 8 }, 4)).toBe(6);
    expect(laterFrameTime({ start: 0, end: 1 }, 0)).toBe(0.5);
  });

  it('is null when the middle is the keyframe moment, or close to it', () => {
    expect(laterFrameTime({ start: 0, end: 0.6 }, 0)).toBeNull();
    // A seeked keyframe half a second in already sits near the middle of a 1.5 s segment.
    expect(laterFrameTime({ start: 0, end: 1.5 }, 0.5)).toBeNull();
  });
});

describe('materializeFrames', () => {
  it('gives every segment a later frame on demand, in batches, as JPEG and RGB of the keyframe size, until released', async () => {
    const workDir = join(dir, 'batched');
    await mkdir(workDir);
    const cuts = await detectSceneCuts({ videoPath: clip, workDir, maxSegmentSeconds: 1 });
    const plan = planSegments(cuts, 12, 1);
    expect(plan.length).toBeGreaterThan(8);
    const frames = await materializeFrames(clip, workDir, plan, cuts);
    for (const frame of frames) {
      const later = await frame.laterFrame?.();
      if (!later) throw new Error(`segment ${frame.index} has no later frame`);
      expect(later.path).toBe(join(workDir, `later-${String(frame.index).padStart(4, '0')}.jpg`));
      const jpeg = await readFile(later.path);
      expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      const rgb = await later.rgb();
      expect(rgb.length).toBe(frame.width * frame.height * 3);
      // The pattern moves: half a second later is another picture.
      expect(picturesDiffer(await frame.rgb(), rgb, frame.width, frame.height)).toBe(true);
      expect(await frame.laterFrame?.()).toBe(later);
      await frame.release?.();
      expect(existsSync(later.path)).toBe(false);
      expect(existsSync(later.path.replace(/\.jpg$/, '.rgb'))).toBe(false);
      expect(await frame.laterFrame?.()).toBeNull();
    }
  });

  it('has no later frame for a segment too short for one, or whose middle is past the last frame', async () => {
    const workDir = join(dir, 'edges');
    await mkdir(workDir);
    const plan: PlannedSegment[] = [
      { index: 0, start: 0, end: 0.6, frame: { kind: 'seek', time: 0.3 } },
      { index: 1, start: 0.6, end: 4, frame: { kind: 'seek', time: 1.1 } },
      // Longer than the video (a container that claims a longer duration than its stream).
      { index: 2, start: 4, end: 40, frame: { kind: 'seek', time: 4.5 } },
    ];
    const frames = await materializeFrames(clip, workDir, plan, []);
    expect(await frames[0]?.laterFrame?.()).toBeNull();
    expect((await frames[1]?.laterFrame?.())?.path).toBe(join(workDir, 'later-0001.jpg'));
    expect(await frames[2]?.laterFrame?.()).toBeNull();
  });
});
