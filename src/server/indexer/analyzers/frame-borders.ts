/** A rectangle of a frame, in pixels. */
export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A line is flat when no channel varies by more than this along it (JPEG keyframes ring a little). */
const FLAT_LINE_RANGE = 24;
/** What is left after trimming must keep this share of each side, or the frame is taken whole. */
const MIN_KEPT = 0.1;

/**
 * The frame without its bars: the rows and columns of one flat colour at its edges (letterbox, pillarbox, a photo on a
 * plain card). Classifiers read flat bars as drawn: nsfwjs scored a photograph on a grey card 0.98 "Drawing".
 */
export function contentBox(rgb: Uint8Array, width: number, height: number): Crop {
  const flat = (x0: number, y0: number, dx: number, dy: number, n: number): boolean => {
    const min = [255, 255, 255];
    const max = [0, 0, 0];
    for (let k = 0; k < n; k += 2) {
      const i = ((y0 + k * dy) * width + (x0 + k * dx)) * 3;
      for (let c = 0; c < 3; c++) {
        const v = rgb[i + c] ?? 0;
        min[c] = Math.min(min[c] ?? v, v);
        max[c] = Math.max(max[c] ?? v, v);
      }
    }
    return [0, 1, 2].every((c) => (max[c] ?? 0) - (min[c] ?? 0) <= FLAT_LINE_RANGE);
  };
  let top = 0;
  let bottom = height;
  let left = 0;
  let right = width;
  while (top < bottom - 1 && flat(0, top, 1, 0, width)) top++;
  while (bottom - 1 > top && flat(0, bottom - 1, 1, 0, width)) bottom--;
  while (left < right - 1 && flat(left, top, 0, 1, bottom - top)) left++;
  while (right - 1 > left && flat(right - 1, top, 0, 1, bottom - top)) right--;
  const crop = { x: left, y: top, width: right - left, height: bottom - top };
  if (crop.width < width * MIN_KEPT || crop.height < height * MIN_KEPT) return { x: 0, y: 0, width, height };
  return crop;
}

/** The pixels of `crop` as packed RGB of their own. */
export function cropRgb(rgb: Uint8Array, width: number, crop: Crop): Uint8Array {
  const out = new Uint8Array(crop.width * crop.height * 3);
  for (let row = 0; row < crop.height; row++) {
    const from = ((crop.y + row) * width + crop.x) * 3;
    out.set(rgb.subarray(from, from + crop.width * 3), row * crop.width * 3);
  }
  return out;
}
