import type { RotatedRect } from './rotated-rect';

/** A picture as packed RGB, width * height * 3 bytes. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Per-channel normalisation in the model's channel order, applied to values scaled to 0..1. */
export interface Normalisation {
  /** Channel order of the tensor planes: PP-OCR was trained on OpenCV's BGR. */
  order: readonly [number, number, number];
  mean: readonly [number, number, number];
  std: readonly [number, number, number];
}

/** A planar float tensor [3, height, width] (one image of a batch) that a warp writes into from `offset`. */
export interface TensorTarget {
  data: Float32Array;
  offset: number;
  width: number;
  height: number;
}

/** The whole picture as a rectangle. */
export function wholeImage(image: RgbImage): RotatedRect {
  return { cx: image.width / 2, cy: image.height / 2, ux: 1, uy: 0, width: image.width, height: image.height };
}

/**
 * Samples the rectangle `rect` of the picture onto `outWidth` x `outHeight` pixels of the tensor (its top-left
 * corner), normalised. Bilinear, averaged over a few sub-samples per pixel when shrinking more than twofold so thin
 * strokes are not skipped. Tensor pixels right of `outWidth` are left as they are (the caller's padding).
 *
 * What depends on one axis only (a column's rectangle position, a row's) is computed once per column or row, in the
 * same order of operations as per pixel, so the floats come out the same: this ran on every read and was most of
 * the scene-text thread's JavaScript time.
 */
export function warpToTensor(
  image: RgbImage,
  rect: RotatedRect,
  outWidth: number,
  outHeight: number,
  target: TensorTarget,
  norm: Normalisation,
): void {
  const { data, width, height } = image;
  const scaleU = rect.width / outWidth;
  const scaleV = rect.height / outHeight;
  const sub = Math.min(4, Math.max(1, Math.ceil(Math.max(scaleU, scaleV) / 2)));
  const vx = -rect.uy;
  const vy = rect.ux;
  const plane = target.width * target.height;
  const scale = [0, 1, 2].map((c) => 1 / (255 * norm.std[c]! * sub * sub));
  const shift = [0, 1, 2].map((c) => norm.mean[c]! / norm.std[c]!);
  // Plane p takes channel order[p]: the channel each plane reads, as an offset into a pixel.
  const [c0, c1, c2] = norm.order;
  const [scale0, scale1, scale2] = scale as [number, number, number];
  const [shift0, shift1, shift2] = shift as [number, number, number];
  // Per column sub-sample: rect.cx + u * rect.ux and rect.cy + u * rect.uy (the first terms of px and py).
  const columns = outWidth * sub;
  const colX = new Float64Array(columns);
  const colY = new Float64Array(columns);
  for (let x = 0; x < outWidth; x++) {
    for (let sx = 0; sx < sub; sx++) {
      const u = ((x + (sx + 0.5) / sub) / outWidth - 0.5) * rect.width;
      colX[x * sub + sx] = rect.cx + u * rect.ux;
      colY[x * sub + sx] = rect.cy + u * rect.uy;
    }
  }
  const rowX = new Float64Array(sub);
  const rowY = new Float64Array(sub);
  const sample = new Float64Array(3);
  const maxX = width - 1;
  const maxY = height - 1;
  // An upright rectangle (the whole picture, most text lines): a sample's x depends on its column alone and its y on
  // its row alone (the other term is a signed zero), so the bilinear corners and weights are found once per column.
  const upright = rect.uy === 0;
  const colX0 = new Int32Array(upright ? columns : 0);
  const colX1 = new Int32Array(upright ? columns : 0);
  const colFx = new Float64Array(upright ? columns : 0);
  for (let col = 0; upright && col < columns; col++) {
    const px = Math.min(maxX, Math.max(0, colX[col]! - 0.5));
    const x0 = Math.floor(px);
    colX0[col] = x0 * 3;
    colX1[col] = Math.min(maxX, x0 + 1) * 3;
    colFx[col] = px - x0;
  }
  for (let y = 0; y < outHeight; y++) {
    for (let sy = 0; sy < sub; sy++) {
      const v = ((y + (sy + 0.5) / sub) / outHeight - 0.5) * rect.height;
      rowX[sy] = v * vx;
      rowY[sy] = v * vy;
    }
    const rowAt = target.offset + y * target.width;
    for (let x = 0; x < outWidth; x++) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      for (let sy = 0; sy < sub; sy++) {
        const dx = rowX[sy]!;
        const dy = rowY[sy]!;
        for (let sx = 0; sx < sub; sx++) {
          const col = x * sub + sx;
          const py = Math.min(maxY, Math.max(0, colY[col]! + dy - 0.5));
          const y0 = Math.floor(py);
          const y1 = Math.min(maxY, y0 + 1);
          const fy = py - y0;
          let i00: number, i01: number, i10: number, i11: number, fx: number;
          if (upright) {
            i00 = y0 * width * 3 + colX0[col]!;
            i01 = y0 * width * 3 + colX1[col]!;
            i10 = y1 * width * 3 + colX0[col]!;
            i11 = y1 * width * 3 + colX1[col]!;
            fx = colFx[col]!;
          } else {
            const px = Math.min(maxX, Math.max(0, colX[col]! + dx - 0.5));
            const x0 = Math.floor(px);
            const x1 = Math.min(maxX, x0 + 1);
            fx = px - x0;
            i00 = (y0 * width + x0) * 3;
            i01 = (y0 * width + x1) * 3;
            i10 = (y1 * width + x0) * 3;
            i11 = (y1 * width + x1) * 3;
          }
          let top = data[i00]! + (data[i01]! - data[i00]!) * fx;
          let bottom = data[i10]! + (data[i11]! - data[i10]!) * fx;
          s0 += top + (bottom - top) * fy;
          top = data[i00 + 1]! + (data[i01 + 1]! - data[i00 + 1]!) * fx;
          bottom = data[i10 + 1]! + (data[i11 + 1]! - data[i10 + 1]!) * fx;
          s1 += top + (bottom - top) * fy;
          top = data[i00 + 2]! + (data[i01 + 2]! - data[i00 + 2]!) * fx;
          bottom = data[i10 + 2]! + (data[i11 + 2]! - data[i10 + 2]!) * fx;
          s2 += top + (bottom - top) * fy;
        }
      }
      sample[0] = s0;
      sample[1] = s1;
      sample[2] = s2;
      const at = rowAt + x;
      target.data[at] = sample[c0]! * scale0 - shift0;
      target.data[at + plane] = sample[c1]! * scale1 - shift1;
      target.data[at + 2 * plane] = sample[c2]! * scale2 - shift2;
    }
  }
}
