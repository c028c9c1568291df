import type { Face, Label } from './types';

export interface CaptionInput {
  /** One entry per detection (not merged), so counts can be told: "two people". */
  detections: Label[];
  faces: Face[];
  ocrText: string;
  transcript: string;
}

/** Detections below this score stay in the labels but are too unsure to be named in a sentence. */
export const CAPTION_MIN_SCORE = 0.3;
const MAX_QUOTED_TEXT = 80;
const MAX_QUOTED_SPEECH = 140;
const MAX_NAMED_THINGS = 4;

/**
 * The caption of a segment in which nothing was recognised. It is shown to people but is never content: its words
 * ("people", "objects", "text", "speech") must not make an empty shot match a search (see `captionContent`).
 */
export const NOTHING_RECOGNISED = 'No people, objects, text or speech recognised.';

/** What a caption says about the segment, for indexing and matching: empty when it only says nothing was found. */
export function captionContent(caption: string): string {
  return caption === NOTHING_RECOGNISED ? '' : caption;
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const SAME_PLURAL = new Set(['sheep', 'skis', 'scissors', 'broccoli']);
const IRREGULAR: Record<string, string> = { person: 'people', knife: 'knives', mouse: 'mice' };
const DISPLAY: Record<string, string> = { tv: 'TV' };

/**
 * One readable English sentence from what the analyzers found, e.g.
 * `Two people and a car; on-screen text "HARBOUR LIGHTS"; speech: "we filmed the sunset".`
 * Deterministic: same findings, same sentence.
 */
export function buildCaption(input: CaptionInput): string {
  const parts: string[] = [];
  const things = namedThings(input);
  if (things) parts.push(things);
  const text = clean(input.ocrText);
  if (text) parts.push(`on-screen text "${truncate(text, MAX_QUOTED_TEXT)}"`);
  const speech = clean(input.transcript);
  if (speech) parts.push(`speech: "${truncate(speech, MAX_QUOTED_SPEECH)}"`);
  if (parts.length === 0) return NOTHING_RECOGNISED;
  const sentence = parts.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

function namedThings(input: CaptionInput): string {
  const counts = new Map<string, number>();
  for (const d of input.detections) {
    if (d.score >= CAPTION_MIN_SCORE) counts.set(d.label, (counts.get(d.label) ?? 0) + 1);
  }
  const faces = input.faces.filter((f) => f.score >= CAPTION_MIN_SCORE).length;
  if (faces > 0 && !counts.has('person')) counts.set('face', faces);
  // People first (what editors search for most), then the most frequent, then by name.
  const people = (label: string): number => (label === 'person' || label === 'face' ? 0 : 1);
  const ranked = [...counts.entries()]
    .sort((a, b) => people(a[0]) - people(b[0]) || b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_NAMED_THINGS);
  const phrases = ranked.map(([label, count]) => countPhrase(label, count));
  if (phrases.length <= 1) return phrases[0] ?? '';
  return `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1] ?? ''}`;
}

export function countPhrase(label: string, count: number): string {
  const name = DISPLAY[label] ?? label;
  if (count === 1) return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
  return `${NUMBER_WORDS[count] ?? String(count)} ${pluralOf(name)}`;
}

/** A label's plural as captions write counts ("people", "knives", "skis"): what search reads for "several". */
export function pluralOf(name: string): string {
  const words = name.split(' ');
  const last = words.pop() ?? name;
  let pluralLast: string;
  if (IRREGULAR[last]) pluralLast = IRREGULAR[last];
  else if (SAME_PLURAL.has(last)) pluralLast = last;
  else if (/(s|sh|ch|x)$/.test(last)) pluralLast = `${last}es`;
  else pluralLast = `${last}s`;
  return [...words, pluralLast].join(' ');
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/"/g, "'").trim();
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
