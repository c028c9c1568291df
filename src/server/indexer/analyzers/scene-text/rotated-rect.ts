/** A rectangle at any angle: its centre, its unit axis along the width, and its size along and across that axis. */
export interface RotatedRect {
  cx: number;
  cy: number;
  /** Unit vector along the width (the reading direction for a line of text). */
  ux: number;
  uy: number;
  width: number;
  height: number;
}

type Point = [number, number];

function cross(o: Point, a: Point, b: Point): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** Convex hull (Andrew's monotone chain), counter-clockwise, without repeated points. */
export function convexHull(points: Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length <= 2) return sorted;
  const lower: Point[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/**
 * The smallest-area rectangle around the points (rotating calipers over the hull: the best rectangle has a side on
 * a hull edge). Its axis runs along the longer side and points rightwards (downwards when vertical), so a line of text
 * reads along it: a vertical line then reads top to bottom, as PP-OCR turns tall crops.
 */
export function minAreaRect(points: Point[]): RotatedRect {
  const hull = convexHull(points);
  let best: RotatedRect = { cx: hull[0]?.[0] ?? 0, cy: hull[0]?.[1] ?? 0, ux: 1, uy: 0, width: 0, height: 0 };
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len === 0) continue;
    const ux = (b[0] - a[0]) / len;
    const uy = (b[1] - a[1]) / len;
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const [x, y] of hull) {
      const u = x * ux + y * uy;
      const v = -x * uy + y * ux;
      minU = Math.min(minU, u);
      maxU = Math.max(maxU, u);
      minV = Math.min(minV, v);
      maxV = Math.max(maxV, v);
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = { cx: cu * ux - cv * uy, cy: cu * uy + cv * ux, ux, uy, width: maxU - minU, height: maxV - minV };
    }
  }
  return readingOrientation(best);
}

function readingOrientation(rect: RotatedRect): RotatedRect {
  let { ux, uy, width, height } = rect;
  if (height > width) {
    [ux, uy] = [-uy, ux];
    [width, height] = [height, width];
  }
  // Read left to right (or top to bottom for a vertical axis).
  if (ux < -1e-9 || (Math.abs(ux) <= 1e-9 && uy < 0)) {
    ux = -ux;
    uy = -uy;
  }
  return { ...rect, ux: ux + 0, uy: uy + 0, width, height };
}
