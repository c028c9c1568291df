import { z } from 'zod';
import type { TimedWord } from '../types';

const lineSchema = z.object({
  word: z.string().min(1),
  start: z.coerce.number().nonnegative(),
  end: z.coerce.number().nonnegative(),
  confidence: z.coerce.number(),
});
export type SpottedWord = z.infer<typeof lineSchema>;

const WORD_LINE = /^(\S+)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*$/;

/**
 * Words with times from `pocketsphinx_continuous -time yes` stdout. Each utterance prints its hypothesis line and then
 * one `word start end confidence` line per word; fillers (<s>, </s>, <sil>, [NOISE], ++UM++) are dropped and
 * alternate pronunciations ("the(2)") lose their suffix.
 */
export function parsePocketsphinx(stdout: string): SpottedWord[] {
  const words: SpottedWord[] = [];
  for (const raw of stdout.split('\n')) {
    const m = WORD_LINE.exec(raw.trim());
    if (!m) continue;
    const parsed = lineSchema.parse({ word: m[1], start: m[2], end: m[3], confidence: m[4] });
    const word = parsed.word.replace(/\(\d+\)$/, '');
    if (/^[<[]|^\+\+|^\(NULL\)$/.test(word) || word === '') continue;
    words.push({ ...parsed, word });
  }
  return words.sort((a, b) => a.start - b.start);
}

/**
 * Prompt keywords spotted in a second pass replace the decoded words they cover for more than half of those words'
 * duration (e.g. the language model wrote "harbor", the prompt says "harbour"), or are inserted where nothing was
 * decoded.
 */
export function mergeSpotted(decoded: TimedWord[], spotted: TimedWord[]): TimedWord[] {
  let words = [...decoded];
  for (const hit of spotted) {
    const covered = (w: TimedWord): boolean => overlap(w, hit) > (w.end - w.start) / 2;
    if (words.some((w) => w.word === hit.word && overlap(w, hit) > 0)) continue;
    words = [...words.filter((w) => !covered(w)), hit];
  }
  return words.sort((a, b) => a.start - b.start);
}

function overlap(a: TimedWord, b: TimedWord): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
}
