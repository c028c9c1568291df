import { describe, expect, it } from 'vitest';
import type { CutFrame } from './scene-cuts';
import { planSegments, type PlannedSegment } from './segment-plan';

const cut = (time: number): CutFrame => ({ time, file: `cut-${time}.jpg`, width: 640, height: 360 });

function expectCovering(segments: PlannedSegment[], duration: number, max: number): void {
  expect(segments[0]?.start).toBe(0);
  expect(segments[segments.length - 1]?.end).toBe(duration);
  segments.forEach((s, i) => {
    expect(s.index).toBe(i);
    expect(s.end).toBeGreaterThan(s.start);
    expect(s.end - s.start).toBeLessThanOrEqual(max + 1e-9);
    if (i > 0) expect(s.start).toBe(segments[i - 1]?.end);
  });
}

describe('planSegments', () => {
  it('cuts at scene changes and uses their keyframes', () => {
    const segments = planSegments([cut(0), cut(3), cut(6)], 9, 10);
    expect(segments.map((s) => [s.start, s.end])).toEqual([
      [0, 3],
      [3, 6],
      [6, 9],
    ]);
    expect(segments.map((s) => s.frame)).toEqual([
      { kind: 'cut', file: 'cut-0.jpg' },
      { kind: 'cut', file: 'cut-3.jpg' },
      { kind: 'cut', file: 'cut-6.jpg' },
    ]);
  });

  it('splits long ranges evenly and seeks for the pieces without a keyframe', () => {
    const segments = planSegments([cut(0)], 25, 10);
    expectCovering(segments, 25, 10);
    expect(segments).toHaveLength(3);
    expect(segments[0]?.frame).toEqual({ kind: 'cut', file: 'cut-0.jpg' });
    expect(segments[1]?.frame.kind).toBe('seek');
  });

  it('keeps a range of exactly the maximum whole', () => {
    expect(planSegments([cut(0), cut(10)], 20, 10)).toHaveLength(2);
  });

  it('drops slivers next to another cut or the end, without leaving gaps', () => {
    const segments = planSegments([cut(0.02), cut(4), cut(4.1), cut(7.9)], 8, 10);
    expectCovering(segments, 8, 10);
    expect(segments.map((s) => s.start)).toEqual([0, 4]);
    expect(segments[0]?.frame).toEqual({ kind: 'cut', file: 'cut-0.02.jpg' });
  });

  it('covers any cut list without gaps', () => {
    for (let trial = 0; trial < 200; trial++) {
      const duration = 1 + ((trial * 7.31) % 120);
      const cuts = Array.from({ length: trial % 15 }, (_, i) => cut(((i * 13.7 + trial) % duration) * 0.999));
      expectCovering(planSegments(cuts, duration, 1 + (trial % 12)), duration, 1 + (trial % 12));
    }
  });

  it('refuses an empty video', () => {
    expect(() => planSegments([], 0, 10)).toThrow(/duration/);
  });
});
