/** One word of a recognised line with the mean probability of its characters. */
export interface ReadWord {
  text: string;
  confidence: number;
}

interface Glyph {
  char: string;
  /** The step of the sequence it was read at (one step is 8 pixels of the 48-high line). */
  step: number;
  prob: number;
}

/** The most likely class at each step, repeats collapsed and blanks (class 0) dropped; null stands for a space. */
function greedyGlyphs(
  probs: Float32Array,
  steps: number,
  classes: number,
  charset: readonly string[],
): (Glyph | null)[] {
  const glyphs: (Glyph | null)[] = [];
  let previous = 0;
  for (let t = 0; t < steps; t++) {
    const row = t * classes;
    let best = 0;
    let bestProb = probs[row]!;
    for (let c = 1; c < classes; c++) {
      const p = probs[row + c]!;
      if (p > bestProb) {
        bestProb = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      // Classes past the charset are the space PP-OCR appends.
      const char = charset[best - 1] ?? ' ';
      glyphs.push(char.trim() === '' ? null : { char, step: t, prob: bestProb });
    }
    previous = best;
  }
  return glyphs;
}

/** Pixels of the recogniser's input per step of its output sequence. */
export const STEP_PIXELS = 8;

/**
 * CTC greedy decoding of one line into words. Class i > 0 is `charset[i - 1]`; the line is cut at the spaces read and
 * at `spaces` (positions in input pixels where the picture shows a word space the recogniser did not read: it often
 * drops the space before a digit, "PLATFORM9", or in small text). Each word's confidence is the mean probability of
 * its characters.
 */
export function decodeLine(
  probs: Float32Array,
  steps: number,
  classes: number,
  charset: readonly string[],
  spaces: readonly number[] = [],
): ReadWord[] {
  const centre = (g: Glyph): number => (g.step + 0.5) * STEP_PIXELS;
  const words: ReadWord[] = [];
  let word: Glyph[] = [];
  const flush = (): void => {
    if (word.length > 0) {
      words.push({
        text: word.map((g) => g.char).join(''),
        confidence: word.reduce((sum, g) => sum + g.prob, 0) / word.length,
      });
    }
    word = [];
  };
  for (const g of greedyGlyphs(probs, steps, classes, charset)) {
    const last = word[word.length - 1];
    if (!g || (last && spaces.some((x) => x > centre(last) && x < centre(g)))) flush();
    if (g) word.push(g);
  }
  flush();
  return words;
}
