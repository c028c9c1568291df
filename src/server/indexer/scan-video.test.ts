import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureClip } from '../../../test/fixtures/generated-clips';
import { PATTERN_THEN_BARS_24S } from '../../../test/fixtures/test-clips';
import { tempDir } from '../../../test/helpers/temp';
import { scanVideo, type ScannedVideo } from './scan-video';

let dir = '';
let cleanup: () => Promise<void> = async () => {};
let runs = 0;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-scan-video-'));
});

afterAll(() => cleanup());

async function scan(videoPath: string, splitMinBytes?: number): Promise<{ found: ScannedVideo; files: string[] }> {
  const workDir = join(dir, `run-${runs++}`);
  await mkdir(workDir);
  const fractions: number[] = [];
  let probed = 0;
  const found = await scanVideo({
    videoPath,
    workDir,
    maxSegmentSeconds: 5,
    splitMinBytes,
    onFraction: (f) => fractions.push(f),
    onProbed: () => probed++,
  });
  expect(probed).toBe(1);
  // Up to the last keyframe's time over the duration: 23 s of 24 here.
  expect(Math.max(...fractions)).toBeGreaterThan(0.9);
  expect(Math.max(...fractions)).toBeLessThanOrEqual(1);
  return { found, files: await readdir(workDir) };
}

describe('scanVideo', () => {
  it('scans a small file in one pass, and a large one in two parts to the same cuts and JPEGs', async () => {
    const clip = await ensureClip(PATTERN_THEN_BARS_24S);
    const small = await scan(clip);
    // Any file counts as large: 24 s is long enough to split.
    const large = await scan(clip, 0);
    expect(small.files.some((f) => f.startsWith('b-'))).toBe(false);
    expect(large.files.some((f) => f.startsWith('b-'))).toBe(true);
    expect(large.found.probe.durationSeconds).toBeCloseTo(24, 1);
    // By length every 5 s, the scene cut at 16 s, then by length again.
    expect(small.found.cuts.map((c) => c.time)).toEqual([0, 5, 10, 15, 16, 21]);
    expect(large.found.cuts.map((c) => c.time)).toEqual([0, 5, 10, 15, 16, 21]);
    const bytes = (frames: { file: string }[]): Promise<Buffer[]> => Promise.all(frames.map((f) => readFile(f.file)));
    expect(await bytes(large.found.cuts)).toEqual(await bytes(small.found.cuts));
  });
});
