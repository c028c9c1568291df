import { rng } from './seeded-random';
import type { SeedText } from './search-seed';

/**
 * The library and queries of the search-cost audit (issue 14 items 4 and 8), shared by security-search.test.ts and
 * `bench search-pg`: a victim's large library of two-letter words, an attacker's small one, and the audit's queries.
 */

/** Two-letter words, as the attack used: 676 of them, each in a few percent of the big library's rows. */
export const WORDS = Array.from({ length: 26 * 26 }, (_, i) =>
  String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26)),
);

/** The audit's query: 993 characters, 495 two-letter words, all of them in the victim's library. */
export const ATTACK = Array.from({ length: 495 }, (_, i) => WORDS[(i * 7) % WORDS.length])
  .join(' ')
  .slice(0, 993);

/** The victim's own heavy search: 32 words, each in a few percent of its rows. */
export const HEAVY = Array.from({ length: 32 }, (_, i) => WORDS[(i * 13) % WORDS.length]).join(' ');

/** The victim's segments: 6 random words of caption, 10 of transcript (call with i = 0, 1, 2 ... in order). */
export function victimText(): (i: number) => SeedText {
  const rand = rng(5);
  const words = (n: number): string =>
    Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  return () => ({ caption: words(6), transcript: words(10) });
}

/** The attacker's segments: one word of the victim's each, and two of its own. */
export function attackerText(i: number): SeedText {
  return { caption: `${WORDS[i % WORDS.length]} attacker clip`, transcript: '' };
}
