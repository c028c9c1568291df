import { centreInside, PERSON_MIN_SCORE, type Box, type Seen } from './people-descriptors';

/**
 * Blazeface alone finds "faces" in a water drop and a ladybird's leaf (0.52-0.61, as sure as real faces in greyscale).
 * A face is kept (stored, counted, given an age band or "smiling") only when something else agrees: it sits inside a
 * person box the object detector is sure of, or the middle of its box is mostly skin. Measured on the labelled frames
 * (test/search-eval/labelled-frames.ts): real faces have skin 0.76-0.96 or, in greyscale, a person box 0.66; the two
 * invented ones skin 0-0.02 and no person box.
 */
const SKIN_MIN_SHARE = 0.3;

/** Share of the box's middle half (each way) whose colour is skin's, in YCbCr (Chai and Ngan's ranges). */
export function skinShare(rgb: Uint8Array, width: number, height: number, box: Box): number {
  const [x, y, w, h] = box;
  const x0 = Math.max(0, Math.round(x + w / 4));
  const x1 = Math.min(width, Math.round(x + (3 * w) / 4));
  const y0 = Math.max(0, Math.round(y + h / 4));
  const y1 = Math.min(height, Math.round(y + (3 * h) / 4));
  const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 2000)));
  let seen = 0;
  let skin = 0;
  for (let yy = y0; yy < y1; yy += step)
    for (let xx = x0; xx < x1; xx += step) {
      const i = (yy * width + xx) * 3;
      const r = rgb[i]!;
      const g = rgb[i + 1]!;
      const b = rgb[i + 2]!;
      const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
      const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
      seen++;
      if (cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173) skin++;
    }
  return seen === 0 ? 0 : skin / seen;
}

/** Whether a face the detector found is confirmed by a sure person box around its centre or by skin in its middle. */
export function faceConfirmed(face: Seen, persons: Seen[], rgb: Uint8Array, width: number, height: number): boolean {
  if (persons.some((p) => p.score >= PERSON_MIN_SCORE && centreInside(face.box, p.box))) return true;
  return skinShare(rgb, width, height, face.box) >= SKIN_MIN_SHARE;
}
