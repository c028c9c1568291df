/**
 * The parts of a query that say how to search rather than what to find: filler an editor types around the subject
 * ("footage of", "a shot of", "clip where", "show me") and stop words. And the modifiers that must describe the noun
 * that follows them in one segment: named colours ("red apple") and counts ("two people"), in the words of the
 * descriptor vocabulary (docs/api.md, "Visual descriptors").
 */

/** Phrases asking for footage rather than describing it, removed wherever they stand. */
const FILLER = [
  /\b(?:please\s+)?(?:show|find|give|get)\s+(?:me|us)\b/giu,
  /\b(?:search|look(?:ing)?)\s+for\b/giu,
  /\bi\s+(?:want|need|am\s+looking\s+for)\b/giu,
  // "footage of", "a shot of", "clips where", "the scene with", but not "close-up shot" or "wide shot": those are
  // what the shot is (people:shot).
  /(?<!\b(?:close-?\s?up|medium|wide|long|establishing)\s)\b(?:footage|clips?|videos?|shots?|scenes?|moments?|frames?|photos?|pictures?|images?)\s+(?:of|with|where|when|showing|in\s+which|that\s+shows?)\b/giu,
];

/** Words that carry no subject of their own; dropped unless the query has nothing else. */
export const STOP_WORDS = new Set(
  (
    'a an the of in on at to into onto over under with without and or but for from by as is are was were be been ' +
    'being am it its this that these those there here where when which who whom whose what some any me my us our ' +
    'you your i we they them their he she his her him just very'
  ).split(' '),
);

/** The named colours of the descriptor vocabulary (colour:frame, colour:object), and their British spellings. */
const COLOURS = new Map<string, string>([
  ...['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'white', 'gray', 'black'].map(
    (c): [string, string] => [c, c],
  ),
  ['grey', 'gray'],
]);

/** Counts as words and as digits, as the people:count labels write them ("one person", "two people"). */
const COUNTS = new Map<string, string>(
  ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].flatMap(
    (w, i): [string, string][] => [
      [w, w],
      [String(i + 1), w],
    ],
  ),
);

/** The query text without its filler phrases. */
export function withoutFiller(text: string): string {
  return FILLER.reduce((t, pattern) => t.replace(pattern, ' '), text);
}

/** The query's words without stop words, or all of them when they are all stop words ("the end" keeps "end"). */
export function contentWords(words: string[]): string[] {
  const content = words.filter((w) => !STOP_WORDS.has(w));
  return content.length ? content : words;
}

/** A modifier and the noun it describes, and the one label phrase they make together: "red apples" -> "red apple". */
export interface BoundPhrase {
  /** The query's two terms. */
  terms: [string, string];
  /** The label words they match together. */
  words: string[];
}

/**
 * Colour + noun and count + noun pairs among a query's words (stop words already out): the noun in its base form, so
 * "red apples" matches the label "red apple" and "2 persons" the label "two people". A pair binds only when the second
 * word is a noun (`isNoun`), so "orange" alone stays a fruit and a colour.
 */
export function boundPhrases(terms: string[], baseForm: (word: string) => string | undefined): BoundPhrase[] {
  const bound: BoundPhrase[] = [];
  for (let i = 0; i + 1 < terms.length; i++) {
    const [modifier, noun] = [terms[i]!, terms[i + 1]!];
    const colour = COLOURS.get(modifier);
    const count = COUNTS.get(modifier);
    if (colour === undefined && count === undefined) continue;
    if (COLOURS.has(noun) || COUNTS.has(noun)) continue;
    const base = baseForm(noun);
    if (base === undefined) continue;
    const label = count === undefined ? base : countedNoun(count, base);
    bound.push({ terms: [modifier, noun], words: [colour ?? count!, ...label.split(' ')] });
    i++;
  }
  return bound;
}

/** "two person" is written "two people" in the people:count labels, "one people" "one person". */
function countedNoun(count: string, noun: string): string {
  if (noun === 'person' || noun === 'people') return count === 'one' ? 'person' : 'people';
  return noun;
}
