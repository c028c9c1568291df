import type { ReadWord } from './ctc';

/**
 * A recognised word is kept when the recogniser is at least this sure of it (mean probability of its characters).
 * Words read on real text score 0.93 and above; on textured photographs the few regions the detector finds read
 * below 0.45 (bench scene-text).
 */
export const MIN_WORD_CONFIDENCE = 0.8;

/**
 * Latin letters, digits and the punctuation of Latin text. The recogniser also knows 6,000 CJK characters; texture
 * read as a word comes out as one of those far more often than as Latin, and the index has served Latin text only
 * (tesseract's English model).
 */
const LATIN_WORD = /^[\p{Script=Latin}\p{N}\p{P}\p{Sc}+=<>|~^`]+$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;

/**
 * The words worth indexing from lines of read words: sure, Latin, with a letter or digit. A lone character ("3" of
 * "TAKE 3") is kept only beside another kept word of its line: alone it is nearly always texture.
 */
export function keptWords(lines: ReadWord[][], minConfidence = MIN_WORD_CONFIDENCE): string[] {
  const kept: string[] = [];
  for (const line of lines) {
    const sure = line.filter(
      (w) =>
        w.confidence >= minConfidence && LATIN_WORD.test(w.text) && (w.text.match(LETTER_OR_DIGIT) ?? []).length > 0,
    );
    const long = sure.filter((w) => (w.text.match(LETTER_OR_DIGIT) ?? []).length >= 2);
    if (long.length > 0) kept.push(...sure.map((w) => w.text));
  }
  return kept;
}
