import { describe, expect, it } from 'vitest';
import { Thesaurus } from './thesaurus';

describe('Thesaurus (WordNet 3.1)', () => {
  const t = new Thesaurus();
  it('gives hypernyms: a puppy is a dog', () => {
    expect(t.expand('puppy')).toContain('dog');
  });
  it('gives synonyms: automobile -> car, harbour -> harbor', () => {
    expect(t.expand('automobile')).toContain('car');
    expect(t.expand('harbour')).toContain('harbor');
    expect(t.expand('motorbike')).toContain('motorcycle');
  });
  it('knows nothing of non-words and never returns the term itself', () => {
    expect(t.expand('qwxzzy')).toEqual([]);
    expect(t.expand('car')).not.toContain('car');
  });
});
