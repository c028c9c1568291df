import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { picturesDiffer } from './analyzers/ocr';
import { BLANK_SPREAD, graySpread } from './blank-frame';
import { decodeRgb, extractFrameAt } from './frames';
import { detectSceneCuts } from './scene-cuts';
import { laterFrameTime, materializeFrames } from './segment-frames';
import { planSegments, type PlannedSegment } from './segment-plan';
import { ensureClip } from '../../../test/fixtures/generated-clips';
import { FADE_IN_BETWEEN_CUTS, MOVING_PATTERN_12S } from '../../../test/fixtures/test-clips';

let dir = '';
let cleanup: () => Promise<void> = async () => {};
let clip = '';

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-segment-frames-'));
  clip = await ensureClip(MOVING_PATTERN_12S);
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
    const { cuts, keys } = await detectSceneCuts({ videoPath: clip, workDir, maxSegmentSeconds: 1 });
    const plan = planSegments(cuts, 12, 1);
    expect(plan.length).toBeGreaterThan(8);
    // Keyframes fall on whole seconds, 1 s segments' middles on halves: no scene-pass keyframe is near enough.
    const frames = await materializeFrames(clip, workDir, plan, cuts, undefined, keys);
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
      // Keyframes are decoded in batches: the very pixels one ffmpeg run per keyframe gave.
      expect(
        Buffer.from(await frame.rgb()).equals(
          Buffer.from(await decodeRgb(frame.keyframePath, frame.width, frame.height)),
        ),
      ).toBe(true);
      expect(await frame.laterFrame?.()).toBe(later);
      await frame.release?.();
      expect(existsSync(later.path)).toBe(false);
      expect(existsSync(later.path.replace(/\.jpg$/, '.rgb'))).toBe(false);
      expect(existsSync(frame.keyframePath.replace(/\.jpg$/, '.rgb'))).toBe(false);
      expect(existsSync(frame.keyframePath)).toBe(true);
      expect(await frame.laterFrame?.()).toBeNull();
    }
  });

  it("takes a segment's later frame from the scene pass's keyframes when one lies near its middle", async () => {
    const workDir = join(dir, 'keys');
    await mkdir(workDir);
    const { cuts, keys } = await detectSceneCuts({ videoPath: clip, workDir, maxSegmentSeconds: 10 });
    // A keyframe every second, written every 0.9 s or more: all of them.
    expect(keys.map((k) => k.time)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const plan = planSegments(cuts, 12, 10);
    expect(plan.map((s) => [s.start, s.end])).toEqual([
      [0, 10],
      [10, 12],
    ]);
    const frames = await materializeFrames(clip, workDir, plan, cuts, undefined, keys);
    // The keyframes no segment took are gone; each later frame is the key at its middle (5 s, 11 s), not extracted.
    expect((await readdir(workDir)).filter((f) => f.startsWith('key-'))).toEqual([]);
    for (const frame of frames) {
      const later = await frame.laterFrame?.();
      if (!later) throw new Error(`segment ${frame.index} has no later frame`);
      const middle = (frame.start + frame.end) / 2;
      const rgb = await later.rgb();
      expect(Buffer.from(rgb).equals(Buffer.from(await decodeRgb(later.path, frame.width, frame.height)))).toBe(true);
      const seeked = join(workDir, `seeked-${frame.index}.jpg`);
      await extractFrameAt(clip, middle, seeked);
      expect(picturesDiffer(rgb, await decodeRgb(seeked, frame.width, frame.height), frame.width, frame.height)).toBe(
        false,
      );
      expect(picturesDiffer(await frame.rgb(), rgb, frame.width, frame.height)).toBe(true);
      await frame.release?.();
      expect(existsSync(later.path)).toBe(false);
      expect(existsSync(later.path.replace(/\.jpg$/, '.rgb'))).toBe(false);
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
  it('replaces the black first frame of a fade-in by the segment middle, and keeps a keyframe when all is black', async () => {
    const workDir = join(dir, 'fade');
    await mkdir(workDir);
    // 3 s of a test pattern, a cut to colour bars fading in from black over 1 s, then a cut to 3 s of black.
    const faded = await ensureClip(FADE_IN_BETWEEN_CUTS);
    const { cuts } = await detectSceneCuts({ videoPath: faded, workDir, maxSegmentSeconds: 10 });
    const plan = planSegments(cuts, 9, 10);
    const frames = await materializeFrames(faded, workDir, plan, cuts);
    const at = (t: number) => frames.find((f) => f.start <= t && t < f.end);
    const fadeIn = at(3.5);
    const black = at(7.5);
    if (!fadeIn || !black) throw new Error(`segments: ${frames.map((f) => `${f.start}-${f.end}`).join(', ')}`);
    expect(fadeIn.start).toBeCloseTo(3, 0);
    expect(black.start).toBeCloseTo(6, 0);
    // The fade-in's keyframe is the bars, in the file and in the pixels the analyzers read.
    const shown = await decodeRgb(fadeIn.keyframePath, fadeIn.width, fadeIn.height);
    expect(graySpread(shown)).toBeGreaterThan(20);
    expect(graySpread(await fadeIn.rgb())).toBeGreaterThan(20);
    expect(await fadeIn.laterFrame?.()).toBeNull();
    // Black all through: nothing better to show.
    expect(graySpread(await black.rgb())).toBeLessThan(BLANK_SPREAD);
    expect(existsSync(black.keyframePath)).toBe(true);
  });
});
