import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { ensureClip } from '../../../test/fixtures/generated-clips';
import { MOVING_PATTERN_12S, PATTERN_THEN_BARS_12S } from '../../../test/fixtures/test-clips';
import { balancedSplit, keyframeSizes, parseFramecrc, type KeyframeSize } from './keyframe-sizes';
import { detectSceneCuts, type SceneFrames } from './scene-cuts';

let dir = '';
let cleanup: () => Promise<void> = async () => {};
let runs = 0;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-scene-cuts-'));
});

afterAll(() => cleanup());

async function scan(
  videoPath: string,
  maxSegmentSeconds: number,
  parts: 1 | 2,
  keyframes?: KeyframeSize[],
): Promise<SceneFrames> {
  const workDir = join(dir, `run-${runs++}`);
  await mkdir(workDir);
  return detectSceneCuts({ videoPath, workDir, maxSegmentSeconds, durationSeconds: 12, parts, keyframes });
}

async function bytes(frames: { file: string }[]): Promise<Buffer[]> {
  return Promise.all(frames.map((f) => readFile(f.file)));
}

describe('detectSceneCuts in two halves', () => {
  it('finds the cuts one pass finds, by length across the middle and by scene change after it, with the same JPEGs', async () => {
    const clip = await ensureClip(PATTERN_THEN_BARS_12S);
    const whole = await scan(clip, 2.5, 1);
    const halves = await scan(clip, 2.5, 2);
    // Cuts by length at 3 s and 6 s (the 6 s one is the second half's first keyframe), the scene cut at 8 s, then
    // by length again from there.
    expect(whole.cuts.map((c) => c.time)).toEqual([0, 3, 6, 8, 11]);
    expect(halves.cuts.map((c) => c.time)).toEqual([0, 3, 6, 8, 11]);
    expect(await bytes(halves.cuts)).toEqual(await bytes(whole.cuts));
    // A spread keyframe taken as a cut is not offered again as a spread one.
    expect(halves.keys.map((k) => k.time)).toEqual([0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11]);
    expect(await bytes(halves.keys)).toEqual(await bytes(whole.keys.filter((k) => k.time !== 6)));
  });

  it("splits by the keyframes' sizes when it has them, with the same cuts", async () => {
    const clip = await ensureClip(PATTERN_THEN_BARS_12S);
    const keyframes = await keyframeSizes(clip);
    expect(keyframes.map((k) => k.time)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const whole = await scan(clip, 2.5, 1);
    const parts = await scan(clip, 2.5, 2, keyframes);
    expect(parts.cuts.map((c) => c.time)).toEqual([0, 3, 6, 8, 11]);
    expect(await bytes(parts.cuts)).toEqual(await bytes(whole.cuts));
  });

  it('keeps cutting by length through the second half when no scene changes', async () => {
    const clip = await ensureClip(MOVING_PATTERN_12S);
    const whole = await scan(clip, 4, 1);
    const halves = await scan(clip, 4, 2);
    expect(whole.cuts.map((c) => c.time)).toEqual([0, 4, 8]);
    expect(halves.cuts.map((c) => c.time)).toEqual([0, 4, 8]);
    expect(await bytes(halves.cuts)).toEqual(await bytes(whole.cuts));
  });
});

describe('detectSceneCuts when aborted', () => {
  it('stops both parts and rejects with the reason', async () => {
    const clip = await ensureClip(MOVING_PATTERN_12S);
    const workDir = join(dir, `run-${runs++}`);
    await mkdir(workDir);
    const controller = new AbortController();
    const reason = new Error('stopped by the test');
    const scanning = detectSceneCuts({
      videoPath: clip,
      workDir,
      maxSegmentSeconds: 4,
      durationSeconds: 12,
      parts: 2,
      signal: controller.signal,
    });
    controller.abort(reason);
    await expect(scanning).rejects.toBe(reason);
  });
});

describe('balancedSplit', () => {
  it('splits where each part has about half the decoding work, midway between two keyframes', () => {
    const cheap = Array.from({ length: 40 }, (_, t) => ({ time: t, bytes: 8_000 }));
    const costly = Array.from({ length: 10 }, (_, i) => ({ time: 40 + i, bytes: 1_200_000 }));
    const at = balancedSplit([...cheap, ...costly, { time: 50, bytes: 8_000 }]);
    // Nearly all the work is in 40-49 s: the split falls among those keyframes, not at half the duration.
    expect(at).toBe(43.5);
    expect(balancedSplit(Array.from({ length: 10 }, (_, t) => ({ time: t, bytes: 50_000 })))).toBe(4.5);
  });

  it('does not split a handful of keyframes', () => {
    expect(
      balancedSplit([
        { time: 0, bytes: 1 },
        { time: 1, bytes: 1 },
      ]),
    ).toBeNull();
  });
});

describe('parseFramecrc', () => {
  it('reads times by the time base line and sizes from the packet lines', () => {
    const text = [
      '#tb 0: 1/15360',
      '#media_type 0: video',
      '0,      -1024,          0,      512,    39245, 0xba0c12f5',
      '0,      14336,      15360,      512,    50624, 0xee985cd0',
      'junk',
    ].join('\n');
    expect(parseFramecrc(text)).toEqual([
      { time: 0, bytes: 39245 },
      { time: 1, bytes: 50624 },
    ]);
    expect(parseFramecrc('0, 0, 0, 512, 10, 0x0')).toEqual([]);
  });
});
