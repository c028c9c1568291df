/** A seeded random number generator (an LCG): the same numbers in [0, 1) for the same seed, for generated corpora. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
