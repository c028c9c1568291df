/**
 * Camera motion between two frames of one shot, on small gray copies: the zoom and shift (one global model, q = c +
 * s (p - c) + t) that best maps the first frame onto the second, found by exhaustive search on a coarse copy and refined
 * on a finer one, plus how much of the picture that model leaves unexplained (things moving in the shot).
 */

export interface GrayImage {
  data: Float32Array;
  width: number;
  height: number;
}

export interface MotionModel {
  /** Scale about the centre: above 1 the second frame is magnified (zoom in). */
  scale: number;
  /** Shift in pixels of the image it was found on. */
  tx: number;
  ty: number;
}

export interface MotionEstimate {
  /** Mean absolute gray difference (0..255) of the two frames as they are. */
  stillDifference: number;
  /** The same after mapping the first frame by `model`. */
  residual: number;
  model: MotionModel;
  /** Shift as a fraction of the frame's width and height. */
  shiftX: number;
  shiftY: number;
  /** Share (0..1) of 8 x 8 blocks that the model leaves clearly different: something moves in the shot. */
  movingShare: number;
  /** Mean gray step between neighbours of the first frame: a flat picture shows no motion whatever happens. */
  texture: number;
}

/** Width of the fine gray copy: enough for a 3 % shift to be 5 pixels, cheap enough for a few milliseconds. */
export const FINE_WIDTH = 160;
/** The coarse search tries shifts up to this fraction of the frame each way. */
const MAX_SHIFT = 0.35;
/** Zoom factors the coarse search tries: e^(k * 0.05), about 0.70 .. 1.42. */
const SCALE_STEPS = 7;
/** A mapping must keep this share of the first frame inside the second to be compared at all. */
const MIN_COVERAGE = 0.3;
/** A block whose mean difference under the model exceeds this (0..255) counts as moving. */
const MOVING_BLOCK = 20;

/** Packed RGB to a gray copy `targetWidth` wide (box average: it also removes compression noise). */
export function grayThumb(rgb: Uint8Array, width: number, height: number, targetWidth = FINE_WIDTH): GrayImage {
  const factor = Math.max(1, Math.floor(width / targetWidth));
  const w = Math.max(1, Math.floor(width / factor));
  const h = Math.max(1, Math.floor(height / factor));
  const data = new Float32Array(w * h);
  const area = factor * factor;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        let i = ((y * factor + dy) * width + x * factor) * 3;
        for (let dx = 0; dx < factor; dx++, i += 3) {
          sum += 0.299 * (rgb[i] ?? 0) + 0.587 * (rgb[i + 1] ?? 0) + 0.114 * (rgb[i + 2] ?? 0);
        }
      }
      data[y * w + x] = sum / area;
    }
  }
  return { data, width: w, height: h };
}

/** Half the size, each pixel the mean of four. */
export function halve(image: GrayImage): GrayImage {
  const w = Math.max(1, Math.floor(image.width / 2));
  const h = Math.max(1, Math.floor(image.height / 2));
  const data = new Float32Array(w * h);
  const src = image.data;
  const sw = image.width;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 2 * y * sw + 2 * x;
      data[y * w + x] = ((src[i] ?? 0) + (src[i + 1] ?? 0) + (src[i + sw] ?? 0) + (src[i + sw + 1] ?? 0)) / 4;
    }
  }
  return { data, width: w, height: h };
}

/** Where each column (or row) of a lands in b under the model, -1 outside: computed once per model, not per pixel. */
function mapAxis(size: number, target: number, scale: number, shift: number, step: number): Int32Array {
  const centre = (size - 1) / 2;
  const out = new Int32Array(Math.ceil(size / step));
  for (let k = 0, p = 0; p < size; k++, p += step) {
    const q = Math.round(centre + scale * (p - centre) + shift);
    out[k] = q >= 0 && q < target ? q : -1;
  }
  return out;
}

/** Mean absolute difference of a and b under the model (nearest pixel), over the part of a that lands inside b. */
export function difference(a: GrayImage, b: GrayImage, model: MotionModel, step = 1): number {
  const xs = mapAxis(a.width, b.width, model.scale, model.tx, step);
  const ys = mapAxis(a.height, b.height, model.scale, model.ty, step);
  const ad = a.data;
  const bd = b.data;
  let sum = 0;
  let count = 0;
  for (let k = 0; k < ys.length; k++) {
    const qy = ys[k] ?? -1;
    if (qy < 0) continue;
    const rowA = k * step * a.width;
    const rowB = qy * b.width;
    for (let j = 0; j < xs.length; j++) {
      const qx = xs[j] ?? -1;
      if (qx < 0) continue;
      sum += Math.abs((ad[rowA + j * step] ?? 0) - (bd[rowB + qx] ?? 0));
      count++;
    }
  }
  return count >= xs.length * ys.length * MIN_COVERAGE && count > 0 ? sum / count : Infinity;
}

function texture(image: GrayImage): number {
  let sum = 0;
  let count = 0;
  const { data, width, height } = image;
  for (let y = 0; y + 1 < height; y++) {
    for (let x = 0; x + 1 < width; x++) {
      const v = data[y * width + x] ?? 0;
      sum += Math.abs(v - (data[y * width + x + 1] ?? 0)) + Math.abs(v - (data[(y + 1) * width + x] ?? 0));
      count += 2;
    }
  }
  return count > 0 ? sum / count : 0;
}

function movingShare(a: GrayImage, b: GrayImage, model: MotionModel): number {
  const block = 8;
  let blocks = 0;
  let moving = 0;
  for (let by = 0; by + block <= a.height; by += block) {
    for (let bx = 0; bx + block <= a.width; bx += block) {
      const d = blockDifference(a, b, model, bx, by, block);
      if (d === null) continue;
      blocks++;
      if (d > MOVING_BLOCK) moving++;
    }
  }
  return blocks > 0 ? moving / blocks : 0;
}

function blockDifference(
  a: GrayImage,
  b: GrayImage,
  model: MotionModel,
  bx: number,
  by: number,
  block: number,
): number | null {
  const cx = (a.width - 1) / 2;
  const cy = (a.height - 1) / 2;
  let sum = 0;
  let count = 0;
  for (let y = by; y < by + block; y++) {
    const qy = Math.round(cy + model.scale * (y - cy) + model.ty);
    if (qy < 0 || qy >= b.height) return null;
    for (let x = bx; x < bx + block; x++) {
      const qx = Math.round(cx + model.scale * (x - cx) + model.tx);
      if (qx < 0 || qx >= b.width) return null;
      sum += Math.abs((a.data[y * a.width + x] ?? 0) - (b.data[qy * b.width + qx] ?? 0));
      count++;
    }
  }
  return count > 0 ? sum / count : null;
}

interface Scored {
  model: MotionModel;
  cost: number;
}

function best(candidates: Iterable<MotionModel>, score: (m: MotionModel) => number): Scored {
  let found: Scored = { model: { scale: 1, tx: 0, ty: 0 }, cost: Infinity };
  for (const model of candidates) {
    const cost = score(model);
    if (cost < found.cost) found = { model, cost };
  }
  return found;
}

function* shifts(centre: MotionModel, rangeX: number, rangeY: number, scales: number[]): Generator<MotionModel> {
  for (const scale of scales) {
    for (let ty = -rangeY; ty <= rangeY; ty++) {
      for (let tx = -rangeX; tx <= rangeX; tx++) yield { scale, tx: centre.tx + tx, ty: centre.ty + ty };
    }
  }
}

/** Estimates the camera motion from frame a to frame b (gray copies of one size, FINE_WIDTH wide). */
export function estimateMotion(a: GrayImage, b: GrayImage): MotionEstimate {
  const ma = halve(a);
  const mb = halve(b);
  const sa = halve(ma);
  const sb = halve(mb);
  const identity: MotionModel = { scale: 1, tx: 0, ty: 0 };
  // 1. Shift only, over a wide range, on the smallest copy (a quarter of the fine one).
  const wide = best(shifts(identity, Math.round(sa.width * MAX_SHIFT), Math.round(sa.height * MAX_SHIFT), [1]), (m) =>
    difference(sa, sb, m),
  );
  // 2. Zoom with a small shift, around that shift and around none (a zoom misleads the shift-only search).
  const scales = Array.from({ length: 2 * SCALE_STEPS + 1 }, (_, k) => Math.exp((k - SCALE_STEPS) * 0.05));
  const zoomed = best([...shifts(wide.model, 2, 2, scales), ...shifts(identity, 2, 2, scales)], (m) =>
    difference(sa, sb, m),
  );
  // 3. Refine at twice the size, then at the full size of the fine copy.
  const doubled = (m: MotionModel): MotionModel => ({ scale: m.scale, tx: m.tx * 2, ty: m.ty * 2 });
  const around = (m: MotionModel, step: number): number[] => [-step, 0, step].map((d) => m.scale * Math.exp(d));
  const middle = doubled(zoomed.model);
  const atMiddle = best(shifts(middle, 2, 2, around(middle, 0.025)), (m) => difference(ma, mb, m));
  const fine = doubled(atMiddle.model);
  const refined = best(shifts(fine, 1, 1, around(fine, 0.012)), (m) => difference(a, b, m, 2));
  const stillDifference = difference(a, b, identity, 2);
  const model = refined.cost <= stillDifference ? refined.model : identity;
  return {
    stillDifference,
    residual: Math.min(refined.cost, stillDifference),
    model,
    shiftX: model.tx / a.width,
    shiftY: model.ty / a.height,
    movingShare: movingShare(a, b, model),
    texture: texture(a),
  };
}
