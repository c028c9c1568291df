import { describe, expect, it } from 'vitest';
import { connectedRegions, type ProbabilityMap, textBoxes, unclip } from './db-boxes';
import { mergeLineBoxes } from './merge-lines';
import { minAreaRect } from './rotated-rect';

/** A map of `background` with rectangles (optionally turned about their centre) painted at `value`. */
function map(
  width: number,
  height: number,
  shapes: { cx: number; cy: number; w: number; h: number; angle?: number; value: number }[],
  background = 0.02,
): ProbabilityMap {
  const data = new Float32Array(width * height).fill(background);
  for (const s of shapes) {
    const a = ((s.angle ?? 0) * Math.PI) / 180;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const dx = x + 0.5 - s.cx;
        const dy = y + 0.5 - s.cy;
        const u = dx * Math.cos(a) + dy * Math.sin(a);
        const v = -dx * Math.sin(a) + dy * Math.cos(a);
        if (Math.abs(u) <= s.w / 2 && Math.abs(v) <= s.h / 2) data[y * width + x] = s.value;
      }
    }
  }
  return { data, width, height };
}

describe('minAreaRect', () => {
  it('finds an axis-aligned rectangle with its axis along the longer side, pointing right', () => {
    const rect = minAreaRect([
      [10, 20],
      [50, 20],
      [50, 30],
      [10, 30],
      [30, 25],
    ]);
    expect(rect).toMatchObject({ cx: 30, cy: 25, width: 40, height: 10 });
    expect(rect.ux).toBeCloseTo(1);
    expect(rect.uy).toBeCloseTo(0);
  });

  it('finds a turned rectangle and its angle', () => {
    const a = (20 * Math.PI) / 180;
    const corners: [number, number][] = [
      [-30, -5],
      [30, -5],
      [30, 5],
      [-30, 5],
    ].map(([u, v]) => [100 + u! * Math.cos(a) - v! * Math.sin(a), 50 + u! * Math.sin(a) + v! * Math.cos(a)]);
    const rect = minAreaRect(corners);
    expect(rect.width).toBeCloseTo(60);
    expect(rect.height).toBeCloseTo(10);
    expect(Math.atan2(rect.uy, rect.ux)).toBeCloseTo(a);
    expect(rect.cx).toBeCloseTo(100);
  });

  it('reads a tall rectangle top to bottom', () => {
    const rect = minAreaRect([
      [0, 0],
      [8, 0],
      [8, 80],
      [0, 80],
    ]);
    expect(rect.width).toBeCloseTo(80);
    expect(rect.ux).toBeCloseTo(0);
    expect(rect.uy).toBeCloseTo(1);
  });
});

describe('DB post-processing', () => {
  it('finds each separate region once, 8-connected', () => {
    const m = map(40, 20, [
      { cx: 10, cy: 10, w: 6, h: 4, value: 0.9 },
      { cx: 30, cy: 10, w: 6, h: 4, value: 0.9 },
    ]);
    expect(connectedRegions(m, 0.3).map((r) => r.length)).toEqual([24, 24]);
    // Two pixels touching at a corner are one region.
    const diagonal = { data: Float32Array.from([1, 0, 0, 1]), width: 2, height: 2 };
    expect(connectedRegions(diagonal, 0.3)).toHaveLength(1);
  });

  it('grows a text kernel by area * 1.5 / perimeter on every side', () => {
    const grown = unclip({ cx: 0, cy: 0, ux: 1, uy: 0, width: 40, height: 10 }, 1.5);
    // d = 400 * 1.5 / 100 = 6
    expect(grown.width).toBeCloseTo(52);
    expect(grown.height).toBeCloseTo(22);
  });

  it('boxes a line of text at its place, grown, with its mean probability', () => {
    const boxes = textBoxes(map(200, 100, [{ cx: 100, cy: 50, w: 80, h: 12, value: 0.85 }]));
    expect(boxes).toHaveLength(1);
    const [box] = boxes;
    expect(box!.score).toBeCloseTo(0.85, 2);
    expect(box!.rect.cx).toBeCloseTo(100);
    expect(box!.rect.cy).toBeCloseTo(50);
    const d = (80 * 12 * 1.5) / (2 * (80 + 12));
    expect(box!.rect.width).toBeCloseTo(80 + 2 * d);
    expect(box!.rect.height).toBeCloseTo(12 + 2 * d);
  });

  it('keeps a turned line turned', () => {
    const [box] = textBoxes(map(200, 120, [{ cx: 100, cy: 60, w: 120, h: 14, angle: 10, value: 0.9 }]));
    expect((Math.atan2(box!.rect.uy, box!.rect.ux) * 180) / Math.PI).toBeCloseTo(10, 0);
  });

  it('drops regions the detector is unsure of, and specks', () => {
    const boxes = textBoxes(
      map(200, 100, [
        // Above the pixel threshold (0.3) but under the box threshold (0.6): texture.
        { cx: 50, cy: 30, w: 60, h: 10, value: 0.45 },
        // Sure but two pixels high.
        { cx: 150, cy: 30, w: 40, h: 2, value: 0.95 },
        { cx: 100, cy: 75, w: 60, h: 10, value: 0.9 },
      ]),
    );
    expect(boxes.map((b) => Math.round(b.rect.cy))).toEqual([75]);
  });

  it('finds nothing in a map without text', () => {
    expect(textBoxes(map(64, 64, [], 0.1))).toEqual([]);
  });

  it('scores a box by the whole rectangle, so a ragged region with holes scores lower', () => {
    const m = map(200, 100, [{ cx: 100, cy: 50, w: 80, h: 12, value: 0.9 }]);
    // Punch every other column of the region below the threshold: one comb-shaped region no more.
    for (let y = 44; y < 56; y++) for (let x = 61; x < 140; x += 2) m.data[y * 200 + x] = 0.35;
    const [box] = textBoxes(m);
    expect(box!.score).toBeLessThan(0.9);
    expect(box!.score).toBeGreaterThan(0.6);
  });
});

describe('mergeLineBoxes', () => {
  const box = (cx: number, cy: number, width: number, height: number) => ({ cx, cy, ux: 1, uy: 0, width, height });

  it('joins the overlapping halves of one line into one box around both', () => {
    const [line, ...rest] = mergeLineBoxes([box(100, 50, 120, 30), box(200, 52, 100, 30)]);
    expect(rest).toEqual([]);
    expect(line!.cx).toBeCloseTo(145, 0);
    expect(line!.width).toBeCloseTo(210, 0);
  });

  it('keeps apart boxes of other lines, far apart on one line, or of very different heights', () => {
    const apart = [box(100, 50, 120, 30), box(100, 90, 120, 30), box(400, 50, 100, 30), box(200, 50, 100, 80)];
    expect(mergeLineBoxes(apart)).toHaveLength(4);
  });
});
