import type { TensorTarget } from './warp';

/** Rows of the line looked at: its middle, so the edges of a neighbouring line or of a panel do not count as ink. */
const BAND = [0.2, 0.8] as const;
/** A pixel is ink when it differs from the line's background (its median) by this much (tensor values span 2). */
const INK = 0.5;
/** A column is empty when no more than this many of its band's pixels are ink (anti-aliasing, JPEG ringing). */
const MAX_INK_PIXELS = 1;

/** Rows at the top and bottom of a line are the margin the detector's box was grown by: background. */
const EDGE_ROWS = 3;

/** The line's background: the median grey of its top and bottom rows. */
function edgeMedian(line: TensorTarget, contentWidth: number): number {
  const { data, offset, width, height } = line;
  const plane = width * height;
  const values: number[] = [];
  for (const y of [...Array(EDGE_ROWS).keys(), ...Array.from({ length: EDGE_ROWS }, (_, i) => height - 1 - i)]) {
    for (let x = 0; x < contentWidth; x++) {
      const at = offset + y * width + x;
      values.push((data[at]! + data[at + plane]! + data[at + 2 * plane]!) / 3);
    }
  }
  values.sort((a, b) => a - b);
  return values[values.length >> 1] ?? 0;
}

/**
 * A word space is a run of empty columns at least a quarter of the line's height wide and twice the line's median
 * run (the usual gap between letters). On the lines of bench scene-text letters stand 5-9 pixels apart (48-pixel
 * lines; up to 13 in serif type over a photograph) and words 13-37.
 */
const MIN_GAP_RATIO = 0.25;
const GAP_OVER_LETTER_GAP = 2;
/** Narrower runs are the insides of letters or noise, not the gaps between letters. */
const MIN_LETTER_GAP_RATIO = 0.1;

/**
 * The columns where a straightened line shows a word space, between columns with ink; returns each gap's centre in
 * pixels. On a busy background few columns are empty and nothing is found: the recogniser's own spaces are all there
 * is then.
 */
export function wordGaps(line: TensorTarget, contentWidth: number): number[] {
  const { data, offset, width, height } = line;
  const plane = width * height;
  const top = Math.floor(height * BAND[0]);
  const bottom = Math.ceil(height * BAND[1]);
  const grey = new Float32Array((bottom - top) * contentWidth);
  for (let y = top; y < bottom; y++) {
    for (let x = 0; x < contentWidth; x++) {
      const at = offset + y * width + x;
      grey[(y - top) * contentWidth + x] = (data[at]! + data[at + plane]! + data[at + 2 * plane]!) / 3;
    }
  }
  const background = edgeMedian(line, contentWidth);
  const empty: boolean[] = [];
  for (let x = 0; x < contentWidth; x++) {
    let ink = 0;
    for (let y = 0; y < bottom - top; y++) if (Math.abs(grey[y * contentWidth + x]! - background) > INK) ink++;
    empty.push(ink <= MAX_INK_PIXELS);
  }
  const runs: { centre: number; width: number }[] = [];
  let run = -1;
  for (let x = 0; x <= contentWidth; x++) {
    const isEmpty = x < contentWidth && empty[x];
    if (isEmpty && run < 0) run = x;
    if (!isEmpty && run >= 0) {
      // Only gaps between ink: not the margins before the first letter or after the last.
      if (run > 0 && x < contentWidth) runs.push({ centre: (run + x) / 2, width: x - run });
      run = -1;
    }
  }
  const widths = runs
    .map((r) => r.width)
    .filter((w) => w >= height * MIN_LETTER_GAP_RATIO)
    .sort((a, b) => a - b);
  const letterGap = widths[widths.length >> 1] ?? 0;
  const minGap = Math.max(height * MIN_GAP_RATIO, letterGap * GAP_OVER_LETTER_GAP);
  return runs.filter((r) => r.width >= minGap).map((r) => r.centre);
}
