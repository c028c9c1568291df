import { minAreaRect, type RotatedRect } from './rotated-rect';

/** A probability map from the detector: one value in 0..1 per pixel, row by row. */
export interface ProbabilityMap {
  data: Float32Array;
  width: number;
  height: number;
}

export interface TextBox {
  /** The text region, grown by the unclip distance, in map pixels. */
  rect: RotatedRect;
  /** Mean probability inside the region before it was grown. */
  score: number;
}

/** PP-OCR's DB post-processing defaults (tools/infer/utility.py). */
export const DB_DEFAULTS = {
  /** A pixel is text when its probability is above this. */
  threshold: 0.3,
  /** A region is kept when its mean probability is at least this. */
  boxThreshold: 0.6,
  /** The detector predicts a shrunk text kernel; its box grows by area * ratio / perimeter on each side. */
  unclipRatio: 1.5,
  /** Regions whose shorter side is under this many map pixels are specks. */
  minSize: 3,
  maxCandidates: 1000,
};

export type DbOptions = typeof DB_DEFAULTS;

/** The pixels of each 8-connected region above the threshold, as index lists. */
export function connectedRegions(map: ProbabilityMap, threshold: number): Int32Array[] {
  const { data, width, height } = map;
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const regions: Int32Array[] = [];
  for (let start = 0; start < data.length; start++) {
    if (seen[start] || !(data[start]! > threshold)) continue;
    seen[start] = 1;
    let top = 0;
    let count = 0;
    stack[top++] = start;
    const pixels: number[] = [];
    while (top > 0) {
      const p = stack[--top]!;
      pixels.push(p);
      count++;
      const x = p % width;
      const y = (p - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (!seen[q] && data[q]! > threshold) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    if (count > 0) regions.push(Int32Array.from(pixels));
  }
  return regions;
}

/** The corners of every pixel run of a region (first and last pixel of each row), enough for its hull. */
function regionOutline(pixels: Int32Array, width: number): [number, number][] {
  const rows = new Map<number, [number, number]>();
  for (const p of pixels) {
    const x = p % width;
    const y = (p - x) / width;
    const row = rows.get(y);
    if (!row) rows.set(y, [x, x]);
    else {
      if (x < row[0]) row[0] = x;
      if (x > row[1]) row[1] = x;
    }
  }
  const points: [number, number][] = [];
  for (const [y, [x0, x1]] of rows) points.push([x0, y], [x1 + 1, y], [x0, y + 1], [x1 + 1, y + 1]);
  return points;
}

/** Mean probability of the map pixels whose centres fall inside the rectangle (PP-OCR's "fast" box score). */
export function rectScore(map: ProbabilityMap, rect: RotatedRect): number {
  const halfW = rect.width / 2;
  const halfH = rect.height / 2;
  const reachX = Math.abs(rect.ux) * halfW + Math.abs(rect.uy) * halfH;
  const reachY = Math.abs(rect.uy) * halfW + Math.abs(rect.ux) * halfH;
  const x0 = Math.max(0, Math.floor(rect.cx - reachX));
  const x1 = Math.min(map.width - 1, Math.ceil(rect.cx + reachX));
  const y0 = Math.max(0, Math.floor(rect.cy - reachY));
  const y1 = Math.min(map.height - 1, Math.ceil(rect.cy + reachY));
  let sum = 0;
  let count = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const dx = x + 0.5 - rect.cx;
      const dy = y + 0.5 - rect.cy;
      const u = dx * rect.ux + dy * rect.uy;
      const v = -dx * rect.uy + dy * rect.ux;
      if (Math.abs(u) <= halfW && Math.abs(v) <= halfH) {
        sum += map.data[y * map.width + x]!;
        count++;
      }
    }
  }
  return count === 0 ? 0 : sum / count;
}

/**
 * Grows a text kernel's rectangle by PP-OCR's unclip distance (area * ratio / perimeter): offsetting a rectangle's
 * outline by d and taking the smallest rectangle around the result adds d on every side.
 */
export function unclip(rect: RotatedRect, ratio: number): RotatedRect {
  const perimeter = 2 * (rect.width + rect.height);
  if (perimeter === 0) return rect;
  const distance = (rect.width * rect.height * ratio) / perimeter;
  return { ...rect, width: rect.width + 2 * distance, height: rect.height + 2 * distance };
}

/** DB post-processing: threshold, regions, their rectangles, score, unclip, size filter. */
export function textBoxes(map: ProbabilityMap, options: Partial<DbOptions> = {}): TextBox[] {
  const o = { ...DB_DEFAULTS, ...options };
  const regions = connectedRegions(map, o.threshold)
    .sort((a, b) => b.length - a.length)
    .slice(0, o.maxCandidates);
  const boxes: TextBox[] = [];
  for (const pixels of regions) {
    const kernel = minAreaRect(regionOutline(pixels, map.width));
    if (Math.min(kernel.width, kernel.height) < o.minSize) continue;
    const score = rectScore(map, kernel);
    if (score < o.boxThreshold) continue;
    const rect = unclip(kernel, o.unclipRatio);
    if (Math.min(rect.width, rect.height) < o.minSize + 2) continue;
    boxes.push({ rect, score });
  }
  return boxes;
}
