import type { FaceBox, FaceReading } from './face-descriptors';
import { landmarkFaults } from './face-landmarks';
import { centreInside, PERSON_MIN_SCORE, type Box, type Seen } from './people-descriptors';

/**
 * Blazeface alone finds "faces" in a water drop, a ladybird's leaf, a logo and a book cover (0.51-0.82, as sure as
 * real faces in greyscale). A face is kept (stored, counted, given an age band or "smiling") only when two of three
 * other signals agree: a person box the object detector is sure of around its centre, skin in the middle of its box,
 * and landmarks that lie like a face's (face-landmarks.ts). Counted on 107 detections in 100 frames of real photos
 * (bench/face-confirm.bench.ts): skin or a person box alone kept 4 invented faces (an orange book cover twice, a
 * chick, a motorcycle), landmarks alone 10 (logos, a head's silhouette, a blurred page, a leaf); two of three keep 1
 * (the motorcycle's red tank, zoomed) and lose 5 of 81 real ones, where requiring landmarks always would lose 8 (the
 * landmark net misreads some turned or greyscale faces that skin and a person box both vouch for).
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

/** How many of the two pixel signals vouch for a face: a sure person box around its centre, skin in its middle. */
export function pixelVotes(face: Seen, persons: Seen[], rgb: Uint8Array, width: number, height: number): 0 | 1 | 2 {
  const person = persons.some((p) => p.score >= PERSON_MIN_SCORE && centreInside(face.box, p.box));
  const skin = skinShare(rgb, width, height, face.box) >= SKIN_MIN_SHARE;
  return person && skin ? 2 : person || skin ? 1 : 0;
}

/**
 * The faces the detector found that two of the three signals confirm, described (`describe`: face-api's landmarks,
 * descriptor and age). The pixel signals are counted first: a face neither vouches for cannot reach two votes and is
 * not described, so the landmark net runs on no more faces than it did when either pixel signal alone was enough.
 */
export async function confirmFaces<T extends FaceBox>(
  faces: T[],
  persons: Seen[],
  rgb: Uint8Array,
  width: number,
  height: number,
  describe: <U extends T>(faces: U[]) => Promise<(U & FaceReading)[]>,
): Promise<(T & FaceReading)[]> {
  const vouched = faces
    .map((face) => ({ ...face, votes: pixelVotes(face, persons, rgb, width, height) }))
    .filter((f) => f.votes > 0);
  if (vouched.length === 0) return [];
  // Both pixel signals are two votes already; one needs the landmarks' vote too.
  return (await describe(vouched)).filter((f) => f.votes === 2 || landmarkFaults(f.landmarks, f.box).length === 0);
}
