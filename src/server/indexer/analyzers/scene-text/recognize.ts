import type { RotatedRect } from './rotated-rect';
import { type Normalisation, type RgbImage, warpToTensor } from './warp';

/** PP-OCRv4's recogniser reads lines 48 pixels high. */
export const REC_HEIGHT = 48;
/** PP-OCR pads a batch to at least 320 pixels wide (rec_image_shape 3,48,320). */
const REC_MIN_WIDTH = 320;
/** A line longer than this (in recogniser pixels) is squeezed: 40 characters of a wide title fit. */
const REC_MAX_WIDTH = 1600;

/** (x / 255 - 0.5) / 0.5 on the BGR planes. */
export const RECOGNISER_NORMALISATION: Normalisation = {
  order: [2, 1, 0],
  mean: [0.5, 0.5, 0.5],
  std: [0.5, 0.5, 0.5],
};

/** The width a line is drawn at in the recogniser's input: its aspect kept at height 48. */
export function lineWidth(rect: RotatedRect): number {
  return Math.min(REC_MAX_WIDTH, Math.max(8, Math.ceil((REC_HEIGHT * rect.width) / Math.max(1, rect.height))));
}

/**
 * A batch of lines as the recogniser's input [n, 3, 48, w]: each crop straightened (rotated to horizontal) and scaled
 * to height 48, the rest of the width padded with zeros (mid grey after normalisation) as PP-OCR pads.
 */
export function recogniserInput(
  image: RgbImage,
  rects: RotatedRect[],
): { data: Float32Array; width: number; widths: number[] } {
  const widths = rects.map(lineWidth);
  const width = Math.ceil(Math.max(REC_MIN_WIDTH, ...widths) / 8) * 8;
  const size = 3 * REC_HEIGHT * width;
  const data = new Float32Array(rects.length * size);
  rects.forEach((rect, i) => {
    warpToTensor(
      image,
      rect,
      widths[i]!,
      REC_HEIGHT,
      { data, offset: i * size, width, height: REC_HEIGHT },
      RECOGNISER_NORMALISATION,
    );
  });
  return { data, width, widths };
}
