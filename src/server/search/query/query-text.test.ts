import { describe, expect, it } from 'vitest';
import {
  coverage,
  coverageDetailOf,
  coverageOf,
  ftsPhrases,
  parseQuery,
  QUERY_CAPS,
  type Expander,
} from './query-text';
import { Thesaurus } from './thesaurus';

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
    for (const text of [
      'Puppy at the port',
      'a small boat at the CAFE',
      'young dog, small boats',
      '',
      'harbours and puppies',
    ]) {
      expect(covered(text)).toBe(coverage(q, text));
    }
    expect(covered('a small boat at the café')).toBeCloseTo(2 / 4, 10);
    expect(coverageOf(parseQuery('  '))('anything')).toBe(0);
  });
});

describe('number and misheard phrases', () => {
  const nouns: Expander = {
    expand: (term) => ({ pedestrians: ['pedestrian', 'person'], pedestrian: ['person'] })[term] ?? [],
    baseForm: (word) => ({ pedestrians: 'pedestrian', pedestrian: 'pedestrian', people: 'people' })[word],
  };

  it('ranks several above one for a plural word: found only in the singular it counts 0.9', () => {
    const q = parseQuery('pedestrians', nouns);
    expect(q.plurals.get('pedestrians')).toEqual([['pedestrians'], ['pedestrians'], ['people']]);
    expect(coverage(q, 'Four people and a car.')).toBeCloseTo(0.85, 10);
    expect(coverage(q, 'A person and a car.')).toBeCloseTo(0.9 * 0.85, 10);
    expect(coverage(q, 'Pedestrians crossing')).toBe(1);
    expect(coverage(q, 'one pedestrian')).toBeCloseTo(0.9, 10);
    // A word in the singular, or one WordNet keeps as it is ("people"), asks for no number.
    expect(parseQuery('pedestrian', nouns).plurals.size).toBe(0);
    expect(coverage(parseQuery('pedestrian', nouns), 'A person.')).toBeCloseTo(0.85, 10);
    expect(parseQuery('people', nouns).plurals.size).toBe(0);
  });

  it('counts the longest run of a misheard quoted phrase of three words or more, and searches its word pairs', () => {
    const q = parseQuery('"two small boats"');
    expect(coverage(q, 'we filmed the harbor which is small boats')).toBeCloseTo(2 / 3, 10);
    expect(coverage(q, 'two small boats')).toBe(1);
    // Single words of the phrase, or its words out of order, count nothing.
    expect(coverage(q, 'two boats, small')).toBe(0);
    expect(ftsPhrases(q)).toEqual(['"two small boats"', '"two small"', '"small boats"']);
    // A two-word phrase is still found only whole.
    expect(coverage(parseQuery('"small boats"'), 'small boat')).toBe(0);
    expect(parseQuery('"small boats"').phraseParts).toEqual([]);
  });
});

describe('ftsPhrases', () => {
  it('lists terms, phrases and expansions once each, every one quoted', () => {
    const q = parseQuery('puppy "young dog" dog', expander);
    expect(ftsPhrases(q)).toEqual(['"puppy"', '"dog"', '"young dog"']);
  });
});

describe('query caps', () => {
  it('searches the first 32 distinct words and 8 quoted phrases of 16 words, synonyms up to 64 phrases in all', () => {
    const words = Array.from({ length: 495 }, (_, i) => `w${i}`);
    const quoted = Array.from(
      { length: 10 },
      (_, i) => `"p${i} ${Array.from({ length: 20 }, (_, k) => `x${k}`).join(' ')}"`,
    );
    const many: Expander = {
      expand: (term) => (term.includes(' ') ? [] : Array.from({ length: 12 }, (_, i) => `${term}alt${i}`)),
    };
    const q = parseQuery(`${quoted.join(' ')} ${words.join(' ')}`, many);
    expect(q.terms).toEqual(words.slice(0, QUERY_CAPS.terms));
    expect(q.phrases).toHaveLength(QUERY_CAPS.phrases);
    expect(q.phrases.every((p) => p.length === QUERY_CAPS.wordsPerPhrase)).toBe(true);
    expect(ftsPhrases(q)).toHaveLength(QUERY_CAPS.ftsPhrases);
    // Synonyms go to the first words first: 64 - 32 - 8 = 24 of them, 12 for each of the first two words.
    expect([...q.expansions.keys()]).toEqual(['w0', 'w1']);
  });
});

describe('finds through a broader or a sibling word', () => {
  const thesaurus = new Thesaurus();
  const covered = (query: string, text: string, labels: string[] = []) =>
    coverageDetailOf(parseQuery(query, thesaurus))(text, labels);

  it('are only related: a person is found for "child", not a child', () => {
    expect(thesaurus.expandSteps('child')).toEqual(
      expect.arrayContaining([
        { word: 'person', step: 'broader' },
        { word: 'kid', step: 'synonym' },
      ]),
    );
    const person = covered('child', '', ['one person']);
    expect(person.related).toEqual(['child']);
    expect(person.whole).toBe(false);
    expect(person.share).toBeGreaterThan(0);
    const kid = covered('child', 'a kid on a swing');
    expect(kid.related).toEqual([]);
    expect(kid.whole).toBe(true);
  });

  it('a closer word wins over a related one: "vehicle" finds a truck as what was asked', () => {
    expect(covered('vehicle', '', ['truck']).related).toEqual([]);
  });
});
