import type { Point } from './face-descriptors';
import type { Box } from './people-descriptors';

/**
 * Whether face-api's 68 landmarks (iBUG order) lie the way a face's do. Fed a crop without a face, the landmark net
 * still returns 68 points; on a water drop, a leaf, a circuit board or a blurred page they often come out tilted on
 * end, with the nose level with or above the eyes, the mouth above the nose or shrunk to a dot. Often, not always: on
 * logos and a head's silhouette the net draws an average face, so this is one vote of three (face-confirm.ts), never
 * enough alone. The net has no confidence output of its own; these checks stand in for one.
 *
 * Limits sit a margin outside what real faces gave. Measured on the landmark meshes of 25 real faces in one rendition
 * of real photos (photographs, greyscale, three-quarter and profile views, the animated film), in eye distances on an
 * axis along the eye line: 24 have eye lines within 44 degrees of level, the nose tip 0.26-0.96 below the eyes and
 * within 0.98 of their middle, the mouth 0.09-1.04 below the nose and 0.29-1.94 wide, and the nose 0.41-0.99 as far
 * from one eye as from the other; skimage's cameraman (greyscale, looking down into his camera) fails. Over four
 * renditions of each photo, 73 of 81 real detections pass (bench/face-confirm.bench.ts).
 */
const LIMITS = {
  /** Eye line's angle from level, degrees: a face on its side is not looked for (the detector has no rotation). */
  maxTiltDegrees: 50,
  /** Eye centres apart, as a share of the box width: one point, or wider than the box, is no pair of eyes. */
  eyesApart: [0.06, 0.7],
  /** Nose tip below the eye line. */
  noseBelow: [0.15, 1.6],
  /** Nose tip from the eyes' middle, along the eye line (a turned head moves it towards one eye). */
  noseAside: 1.2,
  /** Mouth centre below the nose tip. */
  mouthBelowNose: [0.05, 1.6],
  /** Mouth corner to corner. */
  mouthWide: [0.15, 2.5],
  /** Nearer eye's distance from the nose tip over the farther one's. */
  minSymmetry: 0.3,
  /** Share of the 68 points inside the box grown by a tenth each way. */
  minInside: 0.9,
} as const;

export type LandmarkRule =
  'level' | 'apart' | 'nose below' | 'nose between' | 'mouth below' | 'mouth' | 'symmetry' | 'inside';

const mean = (points: Point[], from: number, to: number): Point => {
  const part = points.slice(from, to);
  return {
    x: part.reduce((s, p) => s + p.x, 0) / part.length,
    y: part.reduce((s, p) => s + p.y, 0) / part.length,
  };
};

const within = (v: number, [lo, hi]: readonly [number, number]): boolean => v >= lo && v <= hi;

/** The rules a landmark mesh breaks (empty: it lies like a face's); `box` is the face box it was read in. */
export function landmarkFaults(points: Point[], box: Box): LandmarkRule[] {
  if (points.length !== 68) return ['inside'];
  const [bx, by, bw, bh] = box;
  const leftEye = mean(points, 36, 42);
  const rightEye = mean(points, 42, 48);
  const dx = rightEye.x - leftEye.x;
  const dy = rightEye.y - leftEye.y;
  const eyes = Math.hypot(dx, dy);
  if (!(eyes > 0)) return ['apart'];
  const mid = { x: (leftEye.x + rightEye.x) / 2, y: (leftEye.y + rightEye.y) / 2 };
  // Coordinates along the eye line (u) and down from it (v), in eye distances.
  const frame = (p: Point): { u: number; v: number } => {
    const [px, py] = [p.x - mid.x, p.y - mid.y];
    return { u: (px * dx + py * dy) / eyes ** 2, v: (py * dx - px * dy) / eyes ** 2 };
  };
  const noseTip = points[30]!;
  const nose = frame(noseTip);
  const mouth = frame(mean(points, 48, 68));
  const corners = [frame(points[48]!), frame(points[54]!)];
  const near = Math.hypot(noseTip.x - leftEye.x, noseTip.y - leftEye.y);
  const far = Math.hypot(noseTip.x - rightEye.x, noseTip.y - rightEye.y);
  const [gx, gy] = [bw / 10, bh / 10];
  const inside = points.filter((p) => p.x >= bx - gx && p.x <= bx + bw + gx && p.y >= by - gy && p.y <= by + bh + gy);

  const faults: LandmarkRule[] = [];
  // dx <= 0: the "left" eye is right of the other, a face upside down or on its side.
  if (dx <= 0 || (Math.atan2(Math.abs(dy), dx) * 180) / Math.PI > LIMITS.maxTiltDegrees) faults.push('level');
  if (!within(eyes / bw, LIMITS.eyesApart)) faults.push('apart');
  if (!within(nose.v, LIMITS.noseBelow)) faults.push('nose below');
  if (Math.abs(nose.u) > LIMITS.noseAside) faults.push('nose between');
  if (!within(mouth.v - nose.v, LIMITS.mouthBelowNose)) faults.push('mouth below');
  if (!within(corners[1]!.u - corners[0]!.u, LIMITS.mouthWide)) faults.push('mouth');
  if (Math.min(near, far) / Math.max(near, far) < LIMITS.minSymmetry) faults.push('symmetry');
  if (inside.length / points.length < LIMITS.minInside) faults.push('inside');
  return faults;
}
