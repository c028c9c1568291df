import { grayThumb } from './motion-estimate';

/**
 * What tells a drawn picture from a photograph in its pixels, besides a classifier: drawings are made of flat colour
 * inside ink outlines; paintings of brush strokes that leave no part of the canvas smooth and run every way.
 */
export interface DrawnLook {
  /** Share of the picture with no gray step between neighbours (< 1.5 of 255 on a 320 px copy): flat colour. */
  flatShare: number;
  /** Share of pixels on a thin dark line (darker by >= 50 of 255 than both sides 3 px away): ink outlines. */
  inkShare: number;
  /**
   * Texture of the smoothest tenth of the picture (the 10th percentile of 16 x 16 blocks' mean gray step): brush
   * strokes leave no part of a painting smooth, while a photograph has sky, skin or blur somewhere.
   */
  textureFloor: number;
  /** Share of strong edges running horizontally or vertically (within 7.5 degrees): windows and circuits, not brushes. */
  axisShare: number;
  /** Standard deviation of the gray copy (0..255): near 0 for a blank frame (black, a fade, a plain card). */
  spread: number;
  /**
   * How abrupt strong edges are: across each strong edge (a gray step >= 60 over 4 px, rows at full resolution), the
   * largest single-pixel step over the 4-px step, averaged. Drawn and rendered edges change in one pixel (measured:
   * photographs rendered as inked posters 0.53-0.72 after video compression and JPEG), a lens blurs them over several
   * (photographs 0.31-0.51, a circuit board's traces 0.61-0.63).
   */
  crispness: number;
}

const THUMB_WIDTH = 320;
const FLAT_STEP = 1.5;
const STRONG_STEP = 20;
const BLOCK = 16;
/** tan(7.5 degrees): an edge this close to horizontal or vertical counts as running along the axes. */
const AXIS_SLOPE = 0.13;
const INK_CONTRAST = 50;
const INK_REACH = 3;
/** A gray step over 4 px from which an edge counts as strong for crispness. */
const CRISP_EDGE_STEP = 60;

/** The drawn-look figures of a packed RGB picture (already without its bars). */
export function drawnLook(rgb: Uint8Array, width: number, height: number): DrawnLook {
  const gray = fullGray(rgb, width, height);
  return {
    ...thumbFigures(rgb, width, height),
    inkShare: inkShare(gray, width, height),
    crispness: crispness(gray, width, height),
  };
}

function thumbFigures(rgb: Uint8Array, width: number, height: number): Omit<DrawnLook, 'inkShare' | 'crispness'> {
  const { data: d, width: w, height: h } = grayThumb(rgb, width, height, THUMB_WIDTH);
  const steps = new Float32Array(w * h);
  let n = 0;
  let flat = 0;
  let strong = 0;
  let axis = 0;
  let sum = 0;
  let squares = 0;
  for (const v of d) {
    sum += v;
    squares += v * v;
  }
  const mean = d.length ? sum / d.length : 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = ((d[i + 1] ?? 0) - (d[i - 1] ?? 0)) / 2;
      const gy = ((d[i + w] ?? 0) - (d[i - w] ?? 0)) / 2;
      const step = Math.hypot(gx, gy);
      steps[i] = step;
      n++;
      if (step < FLAT_STEP) flat++;
      if (step > STRONG_STEP) {
        strong++;
        const ax = Math.abs(gx);
        const ay = Math.abs(gy);
        if (Math.min(ax, ay) < AXIS_SLOPE * Math.max(ax, ay)) axis++;
      }
    }
  }
  const blocks: number[] = [];
  for (let by = 0; by + BLOCK <= h; by += BLOCK) {
    for (let bx = 0; bx + BLOCK <= w; bx += BLOCK) {
      let sum = 0;
      for (let y = by; y < by + BLOCK; y++) for (let x = bx; x < bx + BLOCK; x++) sum += steps[y * w + x] ?? 0;
      blocks.push(sum / (BLOCK * BLOCK));
    }
  }
  blocks.sort((a, b) => a - b);
  return {
    flatShare: n ? flat / n : 0,
    textureFloor: blocks[Math.floor(blocks.length / 10)] ?? 0,
    axisShare: strong ? axis / strong : 0,
    spread: d.length ? Math.sqrt(Math.max(0, squares / d.length - mean * mean)) : 0,
  };
}

function fullGray(rgb: Uint8Array, width: number, height: number): Float32Array {
  const gray = new Float32Array(width * height);
  for (let i = 0, j = 0; i < gray.length; i++, j += 3) {
    gray[i] = 0.299 * (rgb[j] ?? 0) + 0.587 * (rgb[j + 1] ?? 0) + 0.114 * (rgb[j + 2] ?? 0);
  }
  return gray;
}

/** Share of pixels on a thin dark line, across it horizontally or vertically, at full resolution. */
function inkShare(gray: Float32Array, width: number, height: number): number {
  let ink = 0;
  let n = 0;
  const down = INK_REACH * width;
  // Every other row and column: a line of any direction crosses enough of them.
  for (let y = INK_REACH; y < height - INK_REACH; y += 2) {
    for (let x = INK_REACH; x < width - INK_REACH; x += 2) {
      n++;
      const i = y * width + x;
      const v = (gray[i] ?? 0) + INK_CONTRAST;
      const acrossRow = (gray[i - INK_REACH] ?? 0) >= v && (gray[i + INK_REACH] ?? 0) >= v;
      if (acrossRow || ((gray[i - down] ?? 0) >= v && (gray[i + down] ?? 0) >= v)) ink++;
    }
  }
  return n ? ink / n : 0;
}

/** Mean share of the largest one-pixel step in each strong 4-px step along every other row (see DrawnLook). */
function crispness(gray: Float32Array, width: number, height: number): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < height; y += 2) {
    const row = y * width;
    for (let x = 2; x < width - 2; x++) {
      const i = row + x;
      const wide = Math.abs((gray[i + 2] ?? 0) - (gray[i - 2] ?? 0));
      if (wide < CRISP_EDGE_STEP) continue;
      const before = Math.abs((gray[i] ?? 0) - (gray[i - 1] ?? 0));
      const after = Math.abs((gray[i + 1] ?? 0) - (gray[i] ?? 0));
      sum += Math.max(before, after) / wide;
      n++;
    }
  }
  return n ? sum / n : 0;
}
