import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DETECTOR_VOCABULARY } from './detector-vocabulary';
import { Thesaurus } from './thesaurus';
import { WordNetNouns } from './wordnet';

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

  it("widens a general word to the detector's labels below it (hyponyms)", () => {
    expect(t.expand('vehicle')).toEqual(expect.arrayContaining(['car', 'truck', 'motorcycle', 'boat', 'airplane']));
    const animals = ['bird', 'cat', 'dog', 'horse', 'sheep', 'cow', 'elephant', 'bear', 'zebra', 'giraffe'];
    expect(t.expand('animal')).toEqual(expect.arrayContaining(animals));
    expect(t.expand('citrus fruit')).toContain('orange');
    expect(t.expand('fruit')).toEqual(expect.arrayContaining(['apple', 'banana', 'orange']));
    expect(t.expand('furniture')).toEqual(expect.arrayContaining(['chair', 'couch', 'bed']));
  });

  it('keeps to the sense the detector means: a person is no animal, the rodent is not the computer mouse', () => {
    expect(t.expand('animal')).not.toContain('person');
    expect(t.expand('animal')).not.toContain('mouse');
    expect(t.expand('rodent')).not.toContain('mouse');
    expect(t.expand('person')).not.toContain('mouse');
    expect(t.relatives('device')).toContain('mouse');
  });

  it('does not widen a word so general that it names most of the vocabulary', () => {
    const all = DETECTOR_VOCABULARY.map((v) => v.label);
    expect(t.relatives('object').filter((l) => all.includes(l))).toEqual([]);
    expect(t.relatives('artifact')).toEqual([]);
  });

  it("narrows a specific word to the detector's label above it (hypernyms) and a group to its members", () => {
    expect(t.expand('pedestrian')).toContain('person');
    expect(t.expand('astronaut')).toContain('person');
    expect(t.expand('sedan')).toContain('car');
    expect(t.expand('taxi')).toContain('car');
    expect(t.expand('people')).toContain('person');
    // A lemon is a citrus fruit, not an orange: a sibling is no hypernym (but see the nearest kind below).
    expect(t.relatives('citrus fruit')).toEqual(['orange']);
  });

  it('relates an animal or a food no label names to the few labels of its nearest kind', () => {
    expect(t.relatives('lemon')).toEqual(['orange']);
    expect(t.relatives('wolf')).toEqual(['dog']);
    expect(t.relatives('goat')).toEqual(['sheep', 'cow']);
    // Not a word with labels of its own, not artifacts (a building is no toilet), not a kind with many labels.
    expect(t.relatives('car')).toEqual([]);
    expect(t.relatives('building')).toEqual([]);
    expect(t.relatives('monkey')).toEqual([]);
  });

  it('relates a drink, a dish or a sport without a label of its own to what its compounds are kinds of', () => {
    // "coffee cup" is a cup, "teacup" a cup, "soccer ball" a ball (the detector's sports ball).
    expect(t.relatives('coffee')).toEqual(['cup']);
    expect(t.relatives('tea')).toContain('cup');
    expect(t.relatives('soccer')).toEqual(['sports ball']);
    expect(t.relatives('tennis')).toEqual(expect.arrayContaining(['sports ball', 'tennis racket']));
    // Animals, places and substances are not widened by their compounds: a water bird, a fish knife, a night bird.
    expect(t.relatives('water')).toEqual([]);
    expect(t.relatives('fish')).toEqual([]);
    expect(t.relatives('night')).toEqual([]);
    // A word with labels of its own keeps to them: the table is the dining table, not a table knife.
    expect(t.relatives('table')).not.toContain('knife');
    // Compounds name things: a "walking horse" is a breed, not what walking is seen with.
    expect(t.relatives('walking')).toEqual([]);
  });

  it('finds the base form of plurals and inflections by WordNet morphology', () => {
    expect(t.expand('pedestrians')).toEqual(expect.arrayContaining(['pedestrian', 'person']));
    expect(t.expand('boxes')).toContain('box');
    expect(t.expand('apples')).toContain('apple');
    expect(t.expand('skis')).toContain('ski');
  });

  it('resolves irregular plurals from the exception list', () => {
    expect(t.expand('mice')).toContain('mouse');
    expect(t.expand('geese')).toContain('goose');
    expect(t.expand('children')).toEqual(expect.arrayContaining(['child', 'person']));
  });

  it("lists the detector's own labels, in its class order (@vladmandic/human's COCO table)", () => {
    // Beside the package's main entry (its exports map hides package.json).
    const dist = dirname(createRequire(import.meta.url).resolve('@vladmandic/human'));
    const bundle = readFileSync(join(dist, 'human.node-wasm.js'), 'utf8');
    const classes = new Map([...bundle.matchAll(/\{class:(\d+),label:"([^"]+)"\}/g)].map((m) => [Number(m[1]), m[2]]));
    expect(classes.size).toBe(80);
    expect(DETECTOR_VOCABULARY.map((v) => v.label)).toEqual(
      [...classes.keys()].sort((a, b) => a - b).map((k) => classes.get(k)),
    );
  });

  it('resolves every detector label to a WordNet sense', () => {
    const nouns = new WordNetNouns();
    const missing = DETECTOR_VOCABULARY.filter((v) => nouns.baseForms(v.lemma ?? v.label).length === 0);
    expect(missing).toEqual([]);
  });
});

describe('WordNetNouns.baseForms', () => {
  const nouns = new WordNetNouns();
  it('keeps a noun as it is and knows no form of a non-word', () => {
    expect(nouns.baseForms('glass')).toContain('glass');
    expect(nouns.baseForms('qwxzzys')).toEqual([]);
  });
  it('applies the detachment rules: -ies -> -y, -ches -> -ch, -men -> -man', () => {
    expect(nouns.baseForms('ladies')).toContain('lady');
    expect(nouns.baseForms('churches')).toContain('church');
    expect(nouns.baseForms('firemen')).toContain('fireman');
  });
  it('takes irregular forms from the exception list only', () => {
    const none = new WordNetNouns(undefined, '');
    expect(none.baseForms('mice')).toEqual([]);
    expect(nouns.baseForms('mice')).toContain('mouse');
  });
});
