import { minAreaRect, type RotatedRect } from './rotated-rect';

/** Two boxes are on one line when their axes differ by under 5 degrees ... */
const MAX_AXIS_SINE = Math.sin((5 * Math.PI) / 180);
/** ... their heights by under 1.5 times, their centres across the line by under half the smaller height ... */
const MAX_HEIGHT_RATIO = 1.5;
const MAX_CROSS_OFFSET = 0.5;

function corners(r: RotatedRect): [number, number][] {
  const vx = -r.uy;
  const vy = r.ux;
  return [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([a, b]) => [
    r.cx + (a! * r.width * r.ux) / 2 + (b! * r.height * vx) / 2,
    r.cy + (a! * r.width * r.uy) / 2 + (b! * r.height * vy) / 2,
  ]);
}

/** ... and the grown boxes overlap along it: the detector split one line, and each half's margin holds a letter of the other. */
function sameLine(a: RotatedRect, b: RotatedRect): boolean {
  if (Math.abs(a.ux * b.uy - a.uy * b.ux) > MAX_AXIS_SINE) return false;
  if (Math.max(a.height, b.height) > MAX_HEIGHT_RATIO * Math.min(a.height, b.height)) return false;
  const dx = b.cx - a.cx;
  const dy = b.cy - a.cy;
  const along = dx * a.ux + dy * a.uy;
  const across = -dx * a.uy + dy * a.ux;
  if (Math.abs(across) > MAX_CROSS_OFFSET * Math.min(a.height, b.height)) return false;
  return Math.abs(along) < (a.width + b.width) / 2;
}

/**
 * Joins the boxes of one line that the detector split (often between words) and whose grown margins overlap: read
 * apart, the second crop starts with the last letter of the first ("EVENING" + "GFERRY"); read whole, the line keeps
 * its words and the space between them.
 */
export function mergeLineBoxes(rects: RotatedRect[]): RotatedRect[] {
  const merged = [...rects];
  for (let i = 0; i < merged.length; i++) {
    for (let j = i + 1; j < merged.length; j++) {
      if (!sameLine(merged[i]!, merged[j]!)) continue;
      merged[i] = minAreaRect([...corners(merged[i]!), ...corners(merged[j]!)]);
      merged.splice(j, 1);
      // The grown box may now reach boxes already passed over.
      j = i;
    }
  }
  return merged;
}
