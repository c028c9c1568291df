import { objectMinScore } from './object-thresholds';
import type { Box } from './people-descriptors';

export interface Detected {
  label: string;
  score: number;
  box: Box;
}

/**
 * "Look closer": centernet sees a keyframe at its input size, so a small object is a few dozen pixels it may misread.
 * A non-person detection that passes its class threshold but stays under OBJECT_SURE, with a box whose long side is
 * under SMALL_BOX of the frame's width, is detected again on a square crop around it (CROP_GROW times its long side,
 * at least CROP_MIN of the frame's width), which the detector scales up to its input size. It is kept only if the
 * crop shows the same class in the same place (SAME_PLACE_IOU) at least as surely as the whole frame did: a real
 * object seen bigger looks at least as much like itself. On the 42 labelled frames (test/search-eval/labelled-frames.ts)
 * 4 frames had such objects, 8 in all: the crops took 2.1 s beside 14.3 s of frame passes (x1.15 over the 42 frames).
 * The street clip's cars went 0.38-0.43 -> 0.65-0.71 and its trucks 0.34-0.38 -> 0.45-0.47, while the "car" centernet
 * sees on a photograph of a building (0.44, a 52x18 px box) fell to 0.35 and is dropped. One right label goes with it:
 * a 14 px bird on home.jpg (0.49), which the crop reads as kites. Person boxes have their own second signals
 * (person-confirm.ts); larger boxes gain little from a crop, so neither pays for a second run.
 */
export const OBJECT_SURE = 0.5;
const SMALL_BOX = 0.1;
const CROP_GROW = 4;
const CROP_MIN = 0.25;
const SAME_PLACE_IOU = 0.3;

/** Whether a detection is indexed only if a closer look confirms it (see above). */
export function needsCloserLook(o: Detected, frameWidth: number): boolean {
  const [, , w, h] = o.box;
  return (
    o.label !== 'person' &&
    o.score >= objectMinScore(o.label) &&
    o.score < OBJECT_SURE &&
    Math.max(w, h) < SMALL_BOX * frameWidth
  );
}

/** The square, in whole frame pixels inside the frame, that a closer look at `box` detects on. */
export function cropAround(box: Box, width: number, height: number): Box {
  const [x, y, w, h] = box;
  const side = Math.round(Math.min(Math.max(CROP_GROW * Math.max(w, h), CROP_MIN * width), width, height));
  const left = Math.round(Math.max(0, Math.min(width - side, x + w / 2 - side / 2)));
  const top = Math.round(Math.max(0, Math.min(height - side, y + h / 2 - side / 2)));
  return [left, top, side, side];
}

function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  return inter / (a[2] * a[3] + b[2] * b[3] - inter);
}

/** Whether the crop's detections (boxes in crop pixels) show `o` again, as surely, in the same place. */
export function seenAgain(o: Detected, crop: Box, again: readonly Detected[]): boolean {
  return again.some((d) => {
    const box: Box = [crop[0] + d.box[0], crop[1] + d.box[1], d.box[2], d.box[3]];
    return d.label === o.label && d.score >= o.score && iou(box, o.box) >= SAME_PLACE_IOU;
  });
}

/**
 * The frame's detections without the unsure small objects a closer look does not confirm, and how many crops were
 * detected on. `detectCrop` runs the object detector on a part of the frame, returning boxes in that part's pixels.
 */
export async function lookCloser<T extends Detected>(
  objects: readonly T[],
  width: number,
  height: number,
  detectCrop: (crop: Box) => Promise<Detected[]>,
): Promise<{ objects: T[]; looks: number }> {
  const kept: T[] = [];
  const looked: { crop: Box; found: Detected[] }[] = [];
  for (const o of objects) {
    if (!needsCloserLook(o, width)) {
      kept.push(o);
      continue;
    }
    // Objects close together (cars along a street) share a crop that already holds them well inside; past MAX_LOOKS
    // crops a busy frame keeps its unsure small objects as the whole frame saw them, so a look costs a frame a bounded
    // number of detector runs.
    let look = looked.find((l) => holdsWellInside(l.crop, o.box));
    if (!look && looked.length < MAX_LOOKS) {
      const crop = cropAround(o.box, width, height);
      look = { crop, found: await detectCrop(crop) };
      looked.push(look);
    }
    if (!look || seenAgain(o, look.crop, look.found)) kept.push(o);
  }
  return { objects: kept, looks: looked.length };
}

/** At most this many closer looks a frame (about 0.25 s of detector each on 2 cores). */
export const MAX_LOOKS = 4;

/** Whether `box` lies inside `crop` with a margin of its own size on every side, as a crop made for it would. */
function holdsWellInside(crop: Box, [x, y, w, h]: Box): boolean {
  const m = Math.max(w, h);
  return x - m >= crop[0] && y - m >= crop[1] && x + w + m <= crop[0] + crop[2] && y + h + m <= crop[1] + crop[3];
}
