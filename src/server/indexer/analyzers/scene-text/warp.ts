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
  const sample = [0, 0, 0];
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      sample[0] = sample[1] = sample[2] = 0;
      for (let sy = 0; sy < sub; sy++) {
        const v = ((y + (sy + 0.5) / sub) / outHeight - 0.5) * rect.height;
        for (let sx = 0; sx < sub; sx++) {
          const u = ((x + (sx + 0.5) / sub) / outWidth - 0.5) * rect.width;
          const px = Math.min(width - 1, Math.max(0, rect.cx + u * rect.ux + v * vx - 0.5));
          const py = Math.min(height - 1, Math.max(0, rect.cy + u * rect.uy + v * vy - 0.5));
          const x0 = Math.floor(px);
          const y0 = Math.floor(py);
          const x1 = Math.min(width - 1, x0 + 1);
          const y1 = Math.min(height - 1, y0 + 1);
          const fx = px - x0;
          const fy = py - y0;
          const i00 = (y0 * width + x0) * 3;
          const i01 = (y0 * width + x1) * 3;
          const i10 = (y1 * width + x0) * 3;
          const i11 = (y1 * width + x1) * 3;
          for (let c = 0; c < 3; c++) {
            const top = data[i00 + c]! + (data[i01 + c]! - data[i00 + c]!) * fx;
            const bottom = data[i10 + c]! + (data[i11 + c]! - data[i10 + c]!) * fx;
            sample[c]! += top + (bottom - top) * fy;
          }
        }
      }
      const at = target.offset + y * target.width + x;
      for (let p = 0; p < 3; p++) {
        const c = norm.order[p]!;
        target.data[at + p * plane] = sample[c]! * scale[p]! - shift[p]!;
      }
    }
  }
}
