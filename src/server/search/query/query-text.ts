import { pluralOf } from '../../indexer/caption';
import { boundPhrases, contentWords, withoutFiller, type BoundPhrase } from './query-words';
import { RELATED_STEPS, type Expansion } from './thesaurus';

/** Words of a query or a document, lower-cased, accents folded; quoted phrases kept together. */
export function tokenize(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

export interface ParsedQuery {
  terms: string[];
  phrases: string[][];
  /** Other words per term (synonyms, hypernyms), each as its words. */
  expansions: Map<string, string[][]>;
  /**
   * Per term, those of its expansions (joined by spaces) that only relate to it, a broader or a sibling word ("child"
   * -> person): a segment with one and not the term is a related find, ranked under the medium level.
   */
  related: Map<string, Set<string>>;
  /** Colour + noun and count + noun pairs of terms, matched together in one label ("red apple", "two people"). */
  bound: BoundPhrase[];
  /**
   * The plural terms ("pedestrians", not "people" or "glass"), each with the words that show several: the term and
   * its expansions in the plural, as captions write counts ("pedestrians", "people", "persons").
   */
  plurals: Map<string, string[][]>;
  /** Runs of two consecutive words of the quoted phrases of three or more, searched too: see `coverageOf`. */
  phraseParts: string[][];
}

/** Counts a term as found through one of its expansions at this weight: the user's own word ranks first. */
const EXPANSION_WEIGHT = 0.85;

/**
 * A colour or count of a bound pair found in the segment but not on the pair's noun ("red" somewhere, an apple of no
 * named colour) counts this much: the segment has the noun, and maybe not the one asked for.
 */
const UNBOUND_MODIFIER_WEIGHT = 0.5;

/**
 * A plural query word ("pedestrians") found only in the singular ("a person") counts this share of what it would: a
 * segment with several ("Four people") ranks first.
 */
const SINGULAR_WEIGHT = 0.9;

export interface Expander {
  expand(term: string): string[];
  /** `expand`'s words with the step relating each to the term (thesaurus.ts); without it every word is a synonym. */
  expandSteps?(term: string): Expansion[];
  /** A noun's base form ("apples" -> "apple", "mice" -> "mouse"); undefined when the word is no noun. */
  baseForm?(word: string): string | undefined;
}

/**
 * What one search may ask of the index (docs/api.md, "Search limits"): the first 32 distinct words and the first 8
 * quoted phrases (16 words each) are searched, the rest of a longer query is ignored; synonyms fill what is left of 64
 * full-text phrases in all, in the order of the words. Every phrase costs a count and a share of the ranking, so
 * these bound a search's work whatever its text.
 */
export const QUERY_CAPS = { terms: 32, phrases: 8, wordsPerPhrase: 16, ftsPhrases: 64 } as const;

/**
 * A query as search uses it: quoted phrases kept whole; elsewhere filler ("footage of", "show me") and stop words
 * dropped (query-words.ts), colour + noun and count + noun pairs bound, and each word's expansions (synonyms,
 * hypernyms, the detector's related labels) from the expander.
 */
export function parseQuery(text: string, expander?: Expander): ParsedQuery {
  const phrases: string[][] = [];
  const rest = text.replace(/"([^"]+)"/g, (_m, phrase: string) => {
    const words = tokenize(phrase).slice(0, QUERY_CAPS.wordsPerPhrase);
    if (words.length && phrases.length < QUERY_CAPS.phrases) phrases.push(words);
    return ' ';
  });
  const words = contentWords(tokenize(withoutFiller(rest)));
  const terms = [...new Set(words)].slice(0, QUERY_CAPS.terms);
  const bound = boundPhrases(terms, (w) => (expander?.baseForm ? expander.baseForm(w) : w));
  const expansions = new Map<string, string[][]>();
  const related = new Map<string, Set<string>>();
  let budget = QUERY_CAPS.ftsPhrases - terms.length - phrases.length - bound.length;
  if (expander) {
    const steps = (text: string): Expansion[] =>
      expander.expandSteps?.(text) ?? expander.expand(text).map((word) => ({ word, step: 'synonym' }));
    const expand = (words: string[]): void => {
      const alts = steps(words.join(' '))
        .map((e) => ({ words: tokenize(e.word), related: RELATED_STEPS.has(e.step) }))
        .filter((e) => e.words.length > 0 && e.words.join(' ') !== words.join(' '))
        .slice(0, Math.max(0, budget));
      budget -= alts.length;
      if (alts.length === 0) return;
      for (const w of words) {
        expansions.set(w, [...(expansions.get(w) ?? []), ...alts.map((a) => a.words)]);
        const only = alts.filter((a) => a.related).map((a) => a.words.join(' '));
        if (only.length) related.set(w, new Set([...(related.get(w) ?? []), ...only]));
      }
    };
    // Two-word nouns ("citrus fruit", "office building") first: their expansions count for both words.
    for (let i = 0; i + 1 < terms.length && budget > 0; i++) expand([terms[i]!, terms[i + 1]!]);
    for (const t of terms) {
      if (budget <= 0) break;
      if (!/^\d+$/.test(t)) expand([t]);
    }
  }
  const plurals = new Map<string, string[][]>();
  for (const t of terms) {
    const base = expander?.baseForm?.(t);
    if (base === undefined || base === t) continue;
    const alts = (expansions.get(t) ?? []).map((words) => [...words.slice(0, -1), pluralOf(words[words.length - 1]!)]);
    plurals.set(t, [[t], ...alts.map((words) => tokenize(words.join(' ')))]);
  }
  const phraseParts: string[][] = [];
  for (const p of phrases) {
    for (let i = 0; i + 1 < p.length && p.length > 2 && budget > 0; i++, budget--) phraseParts.push(p.slice(i, i + 2));
  }
  return { terms, phrases, expansions, related, bound, plurals, phraseParts };
}

/** The query's terms, phrases and expansions as FTS5 strings (every token quoted), each once: any may match. */
export function ftsPhrases(q: ParsedQuery): string[] {
  const expanded = [...q.expansions.values()].flat().map((words) => `"${words.join(' ')}"`);
  const bound = q.bound.map((b) => `"${b.words.join(' ')}"`);
  const parts = q.phraseParts.map((p) => `"${p.join(' ')}"`);
  return [
    ...new Set([
      ...q.terms.map((t) => `"${t}"`),
      ...q.phrases.map((p) => `"${p.join(' ')}"`),
      ...bound,
      ...expanded,
      ...parts,
    ]),
  ];
}

/** A descriptor label as coverage reads it: a plain label counts whole, a weighted one by its weight (0..1). */
export type CoverageLabel = string | { label: string; weight: number };

/** Share of the query's terms and phrases found in a text: the backbone of the calibrated score. */
export function coverage(q: ParsedQuery, text: string, labels?: readonly CoverageLabel[]): number {
  return coverageOf(q)(text, labels);
}

/**
 * `coverage` for one query over many texts: the query's side (stems, expansions) is worked out once. `labels`, when
 * given, are the segment's descriptor labels apart from `text`: a bound pair ("red apple") then counts whole only
 * inside one label (or the text), never across two labels side by side ("white car" + "red"). A word found only in
 * weighted labels counts the largest such label's weight. A plural word found only in the singular counts 0.9 of it.
 * A quoted phrase of three words or more that no place has whole counts the share of its words in its longest run
 * found (two words at least): speech recognition mishears a word ("two small boats" heard "which is small boats").
 */
export function coverageOf(q: ParsedQuery): (text: string, labels?: readonly CoverageLabel[]) => number {
  const detail = coverageDetailOf(q);
  return (text, labels) => detail(text, labels).share;
}

/** How much of a query one segment covers, and which of its words (query-words below) it has nothing for. */
export interface Coverage {
  /** What `coverage` gives: the share of the query found, weights counted. */
  share: number;
  /** The query's words (and quoted phrases) found nowhere, not even through an expansion or in part. */
  missing: string[];
  /**
   * The query's words found only through a broader or a sibling word ("child" through "person"): the segment shows
   * something related, not what was asked.
   */
  related: string[];
  /** Every word found, and each colour or count found together with its noun: the segment has all that was asked. */
  whole: boolean;
}

/** The units of a query that a result can match or not, as a person reads them: its words, its quoted phrases. */
export function queryWords(q: ParsedQuery): string[] {
  return [...q.terms, ...q.phrases.map((p) => `"${p.join(' ')}"`)];
}

/** `coverageOf` with the words found nowhere: see Coverage. */
export function coverageDetailOf(q: ParsedQuery): (text: string, labels?: readonly CoverageLabel[]) => Coverage {
  const total = q.terms.length + q.phrases.length;
  if (total === 0) return () => ({ share: 0, missing: [], related: [], whole: false });
  const terms = new Map(
    q.terms.map((t) => {
      const alts = q.expansions.get(t) ?? [];
      const relatedOnly = q.related.get(t) ?? new Set<string>();
      const split = (close: boolean) => alts.filter((alt) => relatedOnly.has(alt.join(' ')) !== close);
      const stemsOf = (list: string[][]) => list.filter((alt) => alt.length === 1).map((alt) => stem(alt[0]!));
      const phrasesOf = (list: string[][]) => list.filter((alt) => alt.length > 1).map((alt) => ` ${alt.join(' ')} `);
      const term = {
        stem: stem(t),
        altStems: stemsOf(split(true)),
        altPhrases: phrasesOf(split(true)),
        relatedStems: stemsOf(split(false)),
        relatedPhrases: phrasesOf(split(false)),
      };
      return [t, term];
    }),
  );
  const boundTerms = new Set(q.bound.flatMap((b) => b.terms));
  const bound = q.bound.map((b) => ({ phrase: ` ${b.words.join(' ')} `, modifier: b.terms[0], noun: b.terms[1] }));
  const phrases = q.phrases.map((p) => ({ words: p, joined: ` ${p.join(' ')} ` }));
  const plurals = new Map([...q.plurals].map(([t, forms]) => [t, forms.map((f) => ` ${f.join(' ')} `)]));
  const queryStems = new Set([...terms.values()].flatMap((t) => [t.stem, ...t.altStems, ...t.relatedStems]));
  return (text, labels = []) => {
    // Each place a word can be found, with the weight a find there counts: the text whole, each label its own.
    const places = [
      { words: tokenize(text), weight: 1 },
      ...labels.map((l) =>
        typeof l === 'string' ? { words: tokenize(l), weight: 1 } : { words: tokenize(l.label), weight: l.weight },
      ),
    ].map((p) => ({ ...p, joined: ` ${p.words.join(' ')} ` }));
    const stemWeight = new Map<string, number>();
    for (const p of places) {
      for (const w of p.words) {
        const s = stem(w);
        if (queryStems.has(s)) stemWeight.set(s, Math.max(stemWeight.get(s) ?? 0, p.weight));
      }
    }
    const all = ` ${places.flatMap((p) => p.words).join(' ')} `;
    // A phrase counts the weight of the place it is in; one found only across places (the text then the labels, as
    // one run of words) counts whole.
    const phraseWeight = (phrase: string): number => {
      const within = places.filter((p) => p.joined.includes(phrase));
      return within.length ? Math.max(...within.map((p) => p.weight)) : all.includes(phrase) ? 1 : 0;
    };
    const altWeight = (stems: string[], phrases: string[]): number =>
      Math.max(0, ...stems.map((s) => stemWeight.get(s) ?? 0), ...phrases.map(phraseWeight));
    /** Terms found only through a broader or sibling word ("child" through "person"). */
    const relatedOnly = new Set<string>();
    const credit = (term: string): number => {
      const t = terms.get(term);
      if (!t) return 0;
      const own = stemWeight.get(t.stem) ?? 0;
      const close = Math.max(own, EXPANSION_WEIGHT * altWeight(t.altStems, t.altPhrases));
      const related = EXPANSION_WEIGHT * altWeight(t.relatedStems, t.relatedPhrases);
      if (close === 0 && related > 0) relatedOnly.add(term);
      const found = Math.max(close, related);
      const several = plurals.get(term);
      if (!several) return found;
      // An expansion's plural is a find of it ("people" for "person"); none at all, a find in the singular only.
      if (several.slice(1).some((f) => all.includes(f))) return Math.max(found, EXPANSION_WEIGHT);
      return all.includes(several[0]!) ? found : SINGULAR_WEIGHT * found;
    };
    // The longest run of a phrase's words found together, as a share of the phrase: 0 when under two words.
    const partOf = (p: (typeof phrases)[number]): number => {
      let longest = 0;
      for (let i = 0; i < p.words.length; i++) {
        for (let j = p.words.length; j - i > Math.max(1, longest); j--) {
          if (all.includes(` ${p.words.slice(i, j).join(' ')} `)) longest = j - i;
        }
      }
      return p.words.length > 2 ? longest / p.words.length : 0;
    };
    let found = 0;
    const missing: string[] = [];
    let apart = false;
    for (const term of terms.keys()) {
      if (boundTerms.has(term)) continue;
      const c = credit(term);
      found += c;
      if (c === 0) missing.push(term);
    }
    for (const b of bound) {
      const together = Math.max(0, ...places.filter((p) => p.joined.includes(b.phrase)).map((p) => p.weight));
      const [noun, modifier] = [credit(b.noun), credit(b.modifier)];
      found += Math.max(2 * together, noun + UNBOUND_MODIFIER_WEIGHT * modifier);
      if (together === 0) {
        apart = true;
        if (modifier === 0) missing.push(b.modifier);
        if (noun === 0) missing.push(b.noun);
      }
    }
    phrases.forEach((p, i) => {
      const c = phraseWeight(p.joined) || partOf(p);
      found += c;
      if (c === 0) missing.push(`"${q.phrases[i]!.join(' ')}"`);
    });
    const related = [...relatedOnly];
    return { share: found / total, missing, related, whole: missing.length === 0 && related.length === 0 && !apart };
  };
}

/** A light suffix stripper, close enough to FTS5's porter tokenizer for measuring coverage. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  for (const suffix of ['ingly', 'edly', 'ing', 'ies', 'ied', 'ed', 'es', 's']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const base = word.slice(0, -suffix.length);
      return suffix === 'ies' || suffix === 'ied' ? `${base}y` : base;
    }
  }
  return word;
}

/** Hashed term-frequency vector (feature hashing, L2-normalised). Lexical, not a neural embedding. */
export const LEXICAL_VECTOR_DIMS = 256;
export function lexicalVector(text: string): Float32Array {
  const v = new Float32Array(LEXICAL_VECTOR_DIMS);
  for (const word of tokenize(text)) {
    let h = 2166136261;
    for (const ch of stem(word)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    v[(h >>> 0) % LEXICAL_VECTOR_DIMS]! += 1;
  }
  const norm = Math.hypot(...v);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length && i < b.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/**
 * The words of a text that match the query (its terms by stem, their one-word expansions, and whole phrases), each
 * once in the text's order, and how many of the text's words match: what a hit shows as why it matched, and the
 * density that separates hits of equal coverage.
 */
export function matchedWordsOf(q: ParsedQuery): (text: string) => { words: string[]; hits: number; total: number } {
  const stems = new Set(
    q.terms.flatMap((t) => [
      stem(t),
      ...(q.expansions.get(t) ?? []).filter((alt) => alt.length === 1).map((alt) => stem(alt[0]!)),
    ]),
  );
  const phrases = [
    ...q.phrases,
    ...q.phraseParts,
    ...q.bound.map((b) => b.words),
    ...[...q.expansions.values()].flat().filter((alt) => alt.length > 1),
  ].map((p) => p.join(' '));
  return (text) => {
    const tokens = tokenize(text);
    const found = new Set<string>();
    let hits = 0;
    for (const w of tokens) {
      if (stems.has(stem(w))) {
        found.add(w);
        hits++;
      }
    }
    const joined = ` ${tokens.join(' ')} `;
    for (const p of phrases) {
      if (joined.includes(` ${p} `)) {
        found.add(p);
        hits += p.split(' ').length;
      }
    }
    return { words: [...found], hits: Math.min(hits, tokens.length), total: tokens.length };
  };
}
