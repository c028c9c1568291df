import type { RotatedRect } from './rotated-rect';
import { type ProbabilityMap, type TextBox, textBoxes } from './db-boxes';
import { type Normalisation, type RgbImage, warpToTensor, wholeImage } from './warp';

/** The detector's longest side (PP-OCR's det_limit_side_len with limit_type "max"). */
export const DETECTOR_LIMIT_SIDE = 960;

/** ImageNet's mean and deviation, applied (as PP-OCR does) to the BGR planes in that order. */
export const DETECTOR_NORMALISATION: Normalisation = {
  order: [2, 1, 0],
  mean: [0.485, 0.456, 0.406],
  std: [0.229, 0.224, 0.225],
};

/** The detector's input size: the picture shrunk to fit the limit, each side rounded to a multiple of 32. */
export function detectorInputSize(
  width: number,
  height: number,
  limitSide = DETECTOR_LIMIT_SIDE,
): { width: number; height: number } {
  const ratio = Math.max(width, height) > limitSide ? limitSide / Math.max(width, height) : 1;
  const round32 = (n: number): number => Math.max(32, Math.round((n * ratio) / 32) * 32);
  return { width: round32(width), height: round32(height) };
}

/** The picture as the detector's input tensor [1, 3, h, w]. */
export function detectorInput(image: RgbImage, size: { width: number; height: number }): Float32Array {
  const data = new Float32Array(3 * size.width * size.height);
  warpToTensor(image, wholeImage(image), size.width, size.height, { data, offset: 0, ...size }, DETECTOR_NORMALISATION);
  return data;
}

/** A rectangle of the probability map in picture pixels (the map may be scaled differently along x and y). */
export function scaleRect(rect: RotatedRect, sx: number, sy: number): RotatedRect {
  const ux = rect.ux * sx;
  const uy = rect.uy * sy;
  const along = Math.hypot(ux, uy);
  const across = Math.hypot(rect.uy * sx, rect.ux * sy);
  return {
    cx: rect.cx * sx,
    cy: rect.cy * sy,
    ux: ux / along,
    uy: uy / along,
    width: rect.width * along,
    height: rect.height * across,
  };
}

/** The text regions of a probability map, in the pixels of the picture it was computed from. */
export function pictureBoxes(map: ProbabilityMap, image: { width: number; height: number }): TextBox[] {
  const sx = image.width / map.width;
  const sy = image.height / map.height;
  return textBoxes(map).map((box) => ({ ...box, rect: scaleRect(box.rect, sx, sy) }));
}
