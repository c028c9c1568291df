/**
 * The Porter stemmer as SQLite's FTS5 `porter` tokenizer applies it (fts5_tokenize.c: Porter's 1980 algorithm with
 * the reference implementation's "bli" -> "ble" and "logi" -> "log"; words under 3 or over 64 characters kept as
 * they are), so PostgreSQL's search index holds the stems FTS5's holds and both engines group the same words.
 * Input: a lower-cased token (query-text.ts `tokenize`).
 */
export function porterStem(word: string): string {
  if (word.length < 3 || word.length > 64) return word;
  const known = stems.get(word);
  if (known !== undefined) return known;
  if (stems.size >= MAX_REMEMBERED) stems.clear();
  const stem = stemOf(word);
  stems.set(word, stem);
  return stem;
}

/**
 * Stems already computed: a search stems each of its words and expansions several times over (the phrase counts, every
 * ranking's tsquery, bm25's lexemes), and the same few thousand words come back search after search. Forgotten all
 * at once past this many (indexing stems every word of every segment).
 */
const MAX_REMEMBERED = 50_000;
const stems = new Map<string, string>();

function stemOf(word: string): string {
  let w = step1ab(word);
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = replaceFirst(w, STEP2, 0);
  w = replaceFirst(w, STEP3, 0);
  w = step4(w);
  return step5(w);
}

function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c === 'y') return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in a stem. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** consonant-vowel-consonant at the end, the last not w, x or y. */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n < 3 || !isConsonant(w, n - 1) || isConsonant(w, n - 2) || !isConsonant(w, n - 3)) return false;
  const c = w[n - 1];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

function step1ab(word: string): string {
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.endsWith('eed')) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  const cut = w.endsWith('ed') ? 2 : w.endsWith('ing') ? 3 : 0;
  if (cut === 0 || !hasVowel(w.slice(0, -cut))) return w;
  w = w.slice(0, -cut);
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return `${w}e`;
  const last = w[w.length - 1];
  if (endsDoubleConsonant(w) && last !== 'l' && last !== 's' && last !== 'z') return w.slice(0, -1);
  if (measure(w) === 1 && endsCvc(w)) return `${w}e`;
  return w;
}

const STEP2: [string, string][] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3: [string, string][] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

/**
 * The reference implementation's switch on the next-to-last letter: the first listed suffix the word ends with is
 * the only one tried (replaced when the stem before it measures more than `min`). Suffixes sharing that letter are
 * listed longest first where one ends another.
 */
function replaceFirst(w: string, rules: [string, string][], min: number): string {
  const penultimate = w[w.length - 2];
  for (const [suffix, replacement] of rules) {
    if (suffix[suffix.length - 2] !== penultimate || !w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    return measure(stem) > min ? stem + replacement : w;
  }
  return w;
}

const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

function step4(w: string): string {
  const penultimate = w[w.length - 2];
  for (const suffix of STEP4) {
    if (suffix[suffix.length - 2] !== penultimate || !w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    if (suffix === 'ion' && !(stem.endsWith('s') || stem.endsWith('t'))) return w;
    return measure(stem) > 1 ? stem : w;
  }
  return w;
}

function step5(word: string): string {
  let w = word;
  if (w.endsWith('e')) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (w.endsWith('ll') && measure(w) > 1) w = w.slice(0, -1);
  return w;
}
