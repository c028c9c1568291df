import { describe, expect, it } from 'vitest';
import { coverage, ftsPhrases, parseQuery } from './query-text';
import { Thesaurus } from './thesaurus';

const thesaurus = new Thesaurus();

describe('query understanding', () => {
  it('drops the filler around what the editor describes, and stop words', () => {
    expect(parseQuery('footage of pedestrians').terms).toEqual(['pedestrians']);
    expect(parseQuery('a shot of a red apple').terms).toEqual(['red', 'apple']);
    expect(parseQuery('clip where the camera pans').terms).toEqual(['camera', 'pans']);
    expect(parseQuery('Show me two people on a beach').terms).toEqual(['two', 'people', 'beach']);
    expect(parseQuery('scenes with a dog').terms).toEqual(['dog']);
  });

  it('keeps what a shot is, quoted phrases, and a query made only of stop words', () => {
    expect(parseQuery('close-up shot of a face').terms).toEqual(['close', 'up', 'shot', 'face']);
    expect(parseQuery('wide shot of the harbour').terms).toEqual(['wide', 'shot', 'harbour']);
    expect(parseQuery('"the end of the day"').phrases).toEqual([['the', 'end', 'of', 'the', 'day']]);
    expect(parseQuery('the end').terms).toEqual(['end']);
    expect(parseQuery('the').terms).toEqual(['the']);
  });

  it('binds colour + noun and count + noun into the one label they make, nouns in their base form', () => {
    expect(parseQuery('red apples', thesaurus).bound).toEqual([{ terms: ['red', 'apples'], words: ['red', 'apple'] }]);
    expect(parseQuery('2 people', thesaurus).bound).toEqual([{ terms: ['2', 'people'], words: ['two', 'people'] }]);
    expect(parseQuery('three persons', thesaurus).bound[0]?.words).toEqual(['three', 'people']);
    expect(parseQuery('one person', thesaurus).bound[0]?.words).toEqual(['one', 'person']);
    expect(parseQuery('grey cars', thesaurus).bound[0]?.words).toEqual(['gray', 'car']);
    expect(ftsPhrases(parseQuery('red apples', thesaurus))).toContain('"red apple"');
    // A colour alone, or before no noun, binds nothing: "orange" stays the fruit too.
    expect(parseQuery('orange', thesaurus).bound).toEqual([]);
    expect(parseQuery('chapter two', thesaurus).bound).toEqual([]);
  });

  it('counts a bound pair whole only inside one label, the colour elsewhere at half', () => {
    const q = parseQuery('red apple', thesaurus);
    expect(coverage(q, '', ['red apple', 'apple'])).toBe(1);
    // "white car" then "red" then "apple": side by side in the label text, yet no label says "red apple".
    expect(coverage(q, '', ['white car', 'red', 'apple'])).toBeCloseTo(0.75, 10);
    expect(coverage(q, '', ['apple'])).toBeCloseTo(0.5, 10);
    expect(coverage(q, 'we picked a red apple', [])).toBe(1);
    const people = parseQuery('2 people', thesaurus);
    expect(coverage(people, 'Two people and a car.', ['person'])).toBe(1);
    expect(coverage(people, '', ['two people'])).toBe(1);
  });

  it('expands two-word nouns as one: "citrus fruit" is an orange', () => {
    const q = parseQuery('citrus fruit', thesaurus);
    expect(q.expansions.get('citrus')?.map((w) => w.join(' '))).toContain('orange');
    expect(coverage(q, '', ['orange'])).toBeCloseTo(0.85, 10);
  });
});
