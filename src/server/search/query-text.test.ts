import { describe, expect, it } from 'vitest';
import { coverage, coverageOf, ftsPhrases, parseQuery, type Expander } from './query-text';

const expander: Expander = {
  expand: (term) => ({ puppy: ['dog', 'young dog'], harbour: ['harbor', 'port'] })[term] ?? [],
};

describe('coverage', () => {
  it('counts each term found (stems compared), an expansion at 0.85, a quoted phrase only whole', () => {
    const q = parseQuery('puppy "two boats" harbour', expander);
    expect(coverage(q, 'Puppies playing by two boats in the harbour')).toBe(1);
    expect(coverage(q, 'a dog by the harbor, boats')).toBeCloseTo((0.85 + 0.85) / 3, 10);
    expect(coverage(q, 'a young dog and two boats')).toBeCloseTo((0.85 + 1) / 3, 10);
    expect(coverage(q, 'nothing here')).toBe(0);
  });

  it('gives the same answers prepared once for many texts', () => {
    const q = parseQuery('puppy harbour "small boat" café', expander);
    const covered = coverageOf(q);
    for (const text of ['Puppy at the port', 'a small boat at the CAFE', 'young dog, small boats', '', 'harbours and puppies']) {
      expect(covered(text)).toBe(coverage(q, text));
    }
    expect(covered('a small boat at the café')).toBeCloseTo(2 / 4, 10);
    expect(coverageOf(parseQuery('  '))('anything')).toBe(0);
  });
});

describe('ftsPhrases', () => {
  it('lists terms, phrases and expansions once each, every one quoted', () => {
    const q = parseQuery('puppy "young dog" dog', expander);
    expect(ftsPhrases(q)).toEqual(['"puppy"', '"dog"', '"young dog"']);
  });
});
