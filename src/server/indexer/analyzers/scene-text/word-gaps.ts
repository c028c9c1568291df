import type { TensorTarget } from './warp';

/** A pixel is ink when it differs from the background of its column by this much (tensor values span 2). */
const INK = 0.5;
/** A column is empty when no more than this many of its band's pixels are ink (anti-aliasing, JPEG ringing). */
const MAX_INK_PIXELS = 1;

/** Rows at the top and bottom of a line are the margin the detector's box was grown by: background. */
const EDGE_ROWS = 3;

/** Columns either side whose margins count towards a column's background. */
const BACKGROUND_REACH = 2;

/**
 * The background behind each column: the median grey of the top and bottom rows of it and its neighbours. Per column,
 * because what shows through a title's translucent box, or a gradient, changes along the line.
 */
function columnBackgrounds(line: TensorTarget, contentWidth: number): Float32Array {
  const { data, offset, width, height } = line;
  const plane = width * height;
  const rows = [...Array(EDGE_ROWS).keys(), ...Array.from({ length: EDGE_ROWS }, (_, i) => height - 1 - i)];
  const edge = rows.map((y) =>
    Float32Array.from({ length: contentWidth }, (_, x) => {
      const at = offset + y * width + x;
      return (data[at]! + data[at + plane]! + data[at + 2 * plane]!) / 3;
    }),
  );
  return Float32Array.from({ length: contentWidth }, (_, x) => {
    const values: number[] = [];
    for (let n = Math.max(0, x - BACKGROUND_REACH); n <= Math.min(contentWidth - 1, x + BACKGROUND_REACH); n++) {
      for (const row of edge) values.push(row[n]!);
    }
    values.sort((a, b) => a - b);
    return values[values.length >> 1] ?? 0;
  });
}

/**
 * A word space is a run of empty columns at least a quarter of the line's height wide and twice the line's median
 * run (the usual gap between letters). On the lines of bench scene-text letters stand 5-9 pixels apart (48-pixel
 * lines; up to 13 in serif type over a photograph) and words 13-37.
 */
const MIN_GAP_RATIO = 0.25;
const GAP_OVER_LETTER_GAP = 2;
/** A row of the text has ink in at least this share of its columns. */
const MIN_ROW_INK = 0.02;
/** Narrower runs are the insides of letters or noise, not the gaps between letters. */
const MIN_LETTER_GAP_RATIO = 0.04;

/**
 * The columns where a straightened line shows a word space, between columns with ink; returns each gap's centre in
 * pixels. On a busy background few columns are empty and nothing is found: the recogniser's own spaces are all there
 * is then.
 */
export function wordGaps(line: TensorTarget, contentWidth: number): number[] {
  const { data, offset, width, height } = line;
  const plane = width * height;
  const background = columnBackgrounds(line, contentWidth);
  const ink = new Uint8Array(height * contentWidth);
  const rowInk = new Array<number>(height).fill(0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < contentWidth; x++) {
      const at = offset + y * width + x;
      const grey = (data[at]! + data[at + plane]! + data[at + 2 * plane]!) / 3;
      if (Math.abs(grey - background[x]!) > INK) {
        ink[y * contentWidth + x] = 1;
        rowInk[y]!++;
      }
    }
  }
  // The rows of this line's text: those with ink, reached from the middle without crossing an empty row. A band
  // through the middle would see a T as its stem alone, with gaps either side; the box's margins may hold the edge
  // of a neighbouring line.
  const inked = (y: number): boolean => rowInk[y]! > contentWidth * MIN_ROW_INK;
  let top = height >> 1;
  let bottom = top;
  while (top > 0 && inked(top - 1)) top--;
  while (bottom < height - 1 && inked(bottom + 1)) bottom++;
  const empty: boolean[] = [];
  for (let x = 0; x < contentWidth; x++) {
    let count = 0;
    for (let y = top; y <= bottom; y++) count += ink[y * contentWidth + x]!;
    empty.push(count <= MAX_INK_PIXELS);
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
