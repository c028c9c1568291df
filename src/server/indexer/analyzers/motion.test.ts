import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEvalClip } from '../../../../test/fixtures/eval-media';
import { busyClip, cameraClip, cutsClip, type CameraMove } from '../../../../test/fixtures/motion-clips';
import { tempDir } from '../../../../test/helpers/temp';
import { analyzeVideo, type AnalyzedSegment } from '../analyze-video';
import type { Label } from '../types';
import { cutPaceLabels } from './cut-pace';
import { MotionAnalyzer, motionLabels } from './motion';
import { estimateMotion, grayThumb } from './motion-estimate';
import { drawFrame } from '../../../../test/helpers/test-frames';

let dir: string;
let cleanup: () => Promise<void>;
let runs = 0;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-motion-'));
});
afterAll(async () => {
  await cleanup?.();
});

async function analyze(videoPath: string): Promise<AnalyzedSegment[]> {
  const workDir = join(dir, `run-${runs++}`);
  await mkdir(workDir);
  const result = await analyzeVideo({ videoPath, workDir, analyzers: [new MotionAnalyzer()] });
  expect(result.failures).toEqual([]);
  return result.segments;
}

function motionWords(labels: Label[]): string[] {
  return labels.filter((l) => l.source.startsWith('motion:')).map((l) => l.label);
}

describe('MotionAnalyzer on clips ffmpeg films from a photograph', () => {
  const cases: [CameraMove, string[]][] = [
    ['static', ['static']],
    ['pan', ['pan']],
    ['tilt', ['tilt']],
    ['zoom', ['zoom']],
  ];
  for (const [move, expected] of cases) {
    it(`calls a ${move} shot ${expected.join(', ')} and nothing else`, async () => {
      const segments = await analyze(await cameraClip(dir, move));
      expect(segments).toHaveLength(1);
      expect(motionWords(segments[0]!.labels)).toEqual(expected);
      for (const l of segments[0]!.labels) expect(l.score).toBeGreaterThanOrEqual(0.3);
    });
  }

  it("calls a fixed camera static while people walk past (OpenCV's street video), above a still photograph", async () => {
    const street = await analyze(await ensureEvalClip('street'));
    const [photo] = await analyze(await cameraClip(dir, 'static'));
    const staticWeight = (labels: Label[]): number => labels.find((l) => l.label === 'static')?.score ?? 0;
    expect(street.length).toBeGreaterThan(1);
    for (const s of street) {
      expect(motionWords(s.labels)).toEqual(['static']);
      expect(staticWeight(s.labels)).toBeGreaterThan(staticWeight(photo!.labels));
    }
    expect(staticWeight(photo!.labels)).toBeLessThanOrEqual(0.6);
  });

  it('calls the game of life busy, with no camera move', async () => {
    const segments = await analyze(await busyClip(dir));
    expect(motionWords(segments[0]!.labels)).toEqual(['busy']);
  });

  it('marks a stretch cut every second "fast cuts"', async () => {
    const segments = await analyze(await cutsClip(dir, 8, 1));
    expect(segments.length).toBe(8);
    for (const s of segments) expect(motionWords(s.labels)).toContain('fast cuts');
    // The plain colour shot holds still.
    expect(motionWords(segments[5]!.labels)).toContain('static');
  });

  it('says nothing about cuts when shots last four seconds', async () => {
    const segments = await analyze(await cutsClip(dir, 4, 4));
    expect(segments.length).toBe(4);
    for (const s of segments) expect(motionWords(s.labels)).not.toContain('fast cuts');
  });
});

describe('estimateMotion', () => {
  it('finds the shift of a textured frame moved by a known amount, and sees no motion in a flat one', () => {
    // Random gray cells 6 px wide: texture with no period for the search to mistake one shift for another.
    const texture = (x: number, y: number): [number, number, number] => {
      const cell = Math.imul(Math.floor(x / 6) + 1000, 73856093) ^ Math.imul(Math.floor(y / 6) + 1000, 19349663);
      const v = (Math.imul(cell ^ (cell >>> 13), 1274126177) >>> 24) & 255;
      return [v, v, v];
    };
    const a = drawFrame(640, 360, texture);
    const b = drawFrame(640, 360, (x, y) => texture(x + 64, y - 24));
    const m = estimateMotion(grayThumb(a, 640, 360), grayThumb(b, 640, 360));
    // b shows what a showed 64 px further right: a point of a is found 16 px (of 160) left in b.
    expect(m.model.tx).toBeCloseTo(-16, 0);
    expect(m.model.ty).toBeCloseTo(6, 0);
    expect(m.model.scale).toBeCloseTo(1, 5);
    expect(m.residual).toBeLessThan(m.stillDifference / 4);
    const flat = drawFrame(640, 360, () => [90, 90, 90]);
    const still = estimateMotion(grayThumb(flat, 640, 360), grayThumb(flat, 640, 360));
    expect(still.stillDifference).toBe(0);
  });
});

describe('motionLabels', () => {
  // Random gray cells: a textured background.
  const texture = (x: number, y: number): [number, number, number] => {
    const cell = Math.imul(Math.floor(x / 6) + 1000, 73856093) ^ Math.imul(Math.floor(y / 6) + 1000, 19349663);
    const v = (Math.imul(cell ^ (cell >>> 13), 1274126177) >>> 24) & 255;
    return [v, v, v];
  };
  const withSquare = (left: number): Uint8Array =>
    drawFrame(640, 360, (x, y) => (x >= left && x < left + 120 && y >= 120 && y < 240 ? [250, 30, 30] : texture(x, y)));
  const labelsOf = (a: Uint8Array, b: Uint8Array): Label[] =>
    motionLabels(estimateMotion(grayThumb(a, 640, 360), grayThumb(b, 640, 360)));

  it('calls a still background with one thing moving across it static, more surely than a frozen frame', () => {
    const moving = labelsOf(withSquare(100), withSquare(300));
    const frozen = labelsOf(withSquare(100), withSquare(100));
    expect(moving.map((l) => l.label)).toEqual(['static']);
    expect(frozen.map((l) => l.label)).toEqual(['static']);
    expect(moving[0]!.score).toBeGreaterThan(0.7);
    expect(frozen[0]!.score).toBeLessThanOrEqual(0.6);
  });

  it('does not call a shot static when most of it moves or the camera does', () => {
    const panned = drawFrame(640, 360, (x, y) => texture(x + 40, y));
    expect(labelsOf(withSquare(100), panned).map((l) => l.label)).not.toContain('static');
    const noise = drawFrame(640, 360, (x, y) => texture(x * 7 + 3, y * 5 + 11));
    expect(labelsOf(drawFrame(640, 360, texture), noise).map((l) => l.label)).not.toContain('static');
  });
});

describe('cutPaceLabels', () => {
  const shots = (lengths: number[]): { start: number; end: number }[] => {
    let t = 0;
    return lengths.map((l) => ({ start: t, end: (t += l) }));
  };

  it('marks only the stretch of short shots, weighted by how many cuts it has', () => {
    const segments = shots([10, 10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 10, 10]);
    const pace = cutPaceLabels(segments, 10);
    expect(pace[0]).toEqual([]);
    expect(pace[13]).toEqual([]);
    expect(pace[6]?.[0]).toMatchObject({ label: 'fast cuts', source: 'motion:activity' });
    expect(pace[6]?.[0]?.score).toBeGreaterThanOrEqual(0.9);
  });

  it('says nothing when segments are short because the maximum segment length is', () => {
    expect(cutPaceLabels(shots([1, 1, 1, 1, 1, 1]), 1).flat()).toEqual([]);
    // Ten-second splits of a long shot are no cuts either.
    expect(cutPaceLabels(shots([10, 10, 10, 10]), 10).flat()).toEqual([]);
  });
});
