import { describe, expect, it } from 'vitest';
import { decodeLine } from './ctc';
import { keptWords } from './kept-words';
import { wordGaps } from './word-gaps';

const CHARSET = ['A', 'B', 'C', '1', '2', '3', '中'];
const CLASSES = CHARSET.length + 2; // blank first, space last
const SPACE = '␣';

/** A probability sequence: one step per entry ('-' for blank), the named class at `p`, the rest spread evenly. */
function sequence(steps: string[], p = 0.9): Float32Array {
  const probs = new Float32Array(steps.length * CLASSES);
  steps.forEach((s, t) => {
    const c = s === '-' ? 0 : s === SPACE ? CLASSES - 1 : CHARSET.indexOf(s) + 1;
    for (let k = 0; k < CLASSES; k++) probs[t * CLASSES + k] = k === c ? p : (1 - p) / (CLASSES - 1);
  });
  return probs;
}

const decode = (steps: string[], p?: number): string[] =>
  decodeLine(sequence(steps, p), steps.length, CLASSES, CHARSET).map((w) => w.text);

describe('decodeLine (CTC greedy)', () => {
  it('collapses repeats and drops blanks, and a blank between two equal letters keeps both', () => {
    expect(decode(['A', 'A', '-', 'B', 'B', 'B', '-', 'B', 'C'])).toEqual(['ABBC']);
    expect(decode(['-', '-', '-'])).toEqual([]);
  });

  it('cuts words at the spaces read', () => {
    expect(decode(['-', 'A', '-', 'B', '-', SPACE, '-', '1', '-', '2', '-'])).toEqual(['AB', '12']);
  });

  it('cuts words where the picture shows a space the recogniser did not read', () => {
    const steps = ['A', '-', 'B', '-', 'C', '-', '-', '-', '3'];
    // Step t covers input pixels 8t..8t+8: a gap centred at pixel 52 lies between C (step 4) and 3 (step 8).
    const read = (spaces: number[]): string[] =>
      decodeLine(sequence(steps), steps.length, CLASSES, CHARSET, spaces).map((w) => w.text);
    expect(read([52])).toEqual(['ABC', '3']);
    expect(read([])).toEqual(['ABC3']);
    // A gap before the first letter or after the last cuts nothing.
    expect(read([1, 90])).toEqual(['ABC3']);
  });

  it('gives each word the mean probability of its characters', () => {
    const [word] = decodeLine(sequence(['A', '-', 'B'], 0.6), 3, CLASSES, CHARSET);
    expect(word!.confidence).toBeCloseTo(0.6);
  });
});

describe('keptWords', () => {
  const w = (text: string, confidence = 0.97): { text: string; confidence: number } => ({ text, confidence });

  it('keeps sure Latin words in order, with a lone character only beside another kept word', () => {
    expect(
      keptWords([
        [w('SCENE'), w('12')],
        [w('TAKE'), w('3')],
      ]),
    ).toEqual(['SCENE', '12', 'TAKE', '3']);
    expect(keptWords([[w('3')], [w('T')]])).toEqual([]);
  });

  it('drops unsure words, and words in scripts the recogniser invents from texture', () => {
    expect(
      keptWords([
        [w('lhdM', 0.37), w('OPEN', 0.81)],
        [w('中山', 0.99), w('unicef')],
      ]),
    ).toEqual(['OPEN', 'unicef']);
    expect(keptWords([[w('...'), w('--')]])).toEqual([]);
  });

  it('keeps accented Latin and words with punctuation', () => {
    expect(keptWords([[w('Café'), w('200m'), w('A-17')]])).toEqual(['Café', '200m', 'A-17']);
  });
});

describe('wordGaps', () => {
  const HEIGHT = 48;
  /** A straightened line in tensor values (-1 dark .. 1 light): light strokes on a dark ground at these columns. */
  function line(width: number, strokes: [number, number][]): Float32Array {
    const data = new Float32Array(3 * width * HEIGHT).fill(-0.8);
    for (const [from, to] of strokes)
      for (let y = 10; y < 38; y++)
        for (let x = from; x < to; x++) for (let c = 0; c < 3; c++) data[c * width * HEIGHT + y * width + x] = 0.9;
    return data;
  }

  /** Letters 14 px wide, 6 px apart; a 24 px space after the third. */
  const TWO_WORDS: [number, number][] = [
    [4, 18],
    [24, 38],
    [44, 58],
    [82, 96],
    [102, 116],
  ];

  it('finds the wide gap between words, not the gaps between letters', () => {
    const gaps = wordGaps({ data: line(130, TWO_WORDS), offset: 0, width: 130, height: HEIGHT }, 120);
    expect(gaps).toEqual([70]);
  });

  it('finds nothing in evenly spaced letters, nor in the margins', () => {
    const strokes: [number, number][] = [
      [30, 44],
      [50, 64],
      [70, 84],
    ];
    expect(wordGaps({ data: line(130, strokes), offset: 0, width: 130, height: HEIGHT }, 130)).toEqual([]);
  });

  it('finds the space over a ground that changes along the line (bars behind a translucent box)', () => {
    const data = line(130, TWO_WORDS);
    // Columns 60-80 (the space) show a lighter bar through the box, top to bottom.
    for (let y = 0; y < HEIGHT; y++)
      for (let x = 60; x < 80; x++) for (let c = 0; c < 3; c++) data[c * 130 * HEIGHT + y * 130 + x] = -0.1;
    expect(wordGaps({ data, offset: 0, width: 130, height: HEIGHT }, 120)).toEqual([70]);
  });

  it('reads dark text on a light ground the same way', () => {
    const inverted = line(130, TWO_WORDS).map((v) => -v);
    expect(wordGaps({ data: inverted, offset: 0, width: 130, height: HEIGHT }, 120)).toEqual([70]);
  });
});
