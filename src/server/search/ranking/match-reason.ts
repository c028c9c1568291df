import type { SearchField } from '../segment-types';
import type { SegmentLabel } from './segment-labels';

/** What a segment holds, as matched: `caption` is its content (never the "nothing recognised" sentence). */
export interface MatchTexts {
  ocrText: string;
  transcript: string;
  caption: string;
  labels: SegmentLabel[];
  names: string;
}

/** How a hit names a matched label, by the label's source (docs/api.md, "Visual descriptors"). */
type LabelReason = 'colour' | 'people' | 'motion' | 'seen';
const LABEL_REASONS: LabelReason[] = ['colour', 'people', 'motion', 'seen'];

function labelReason(source: string): LabelReason {
  if (source === 'colour:object') return 'colour';
  if (source.startsWith('people:')) return 'people';
  if (source.startsWith('motion:')) return 'motion';
  // objects:*, colour:frame, colour:region, drawing, and any source added later: what was seen.
  return 'seen';
}

export type WordMatcher = (text: string) => { words: string[] };

const MAX_SCREEN_TEXT = 40;
const SPEECH_BEFORE = 3;
const SPEECH_AFTER = 5;
const MAX_SEEN = 4;

/**
 * Why a segment matched, in the searched fields, for a person: `on screen: 'SCENE 12' · speech: '…the red car…' ·
 * colour: red apple · people: two people · motion: pan · seen: car, red` (`caption: car` for a caption search), or
 * `file name` when only the names of file, folder, camera or tags matched. Empty when nothing did. Labels are named
 * whole ("two people", not "people"), grouped by the kind of descriptor they are.
 */
export function matchReason(match: WordMatcher, texts: MatchTexts, field: SearchField): string {
  const reasons: string[] = [];
  const explained = new Set<string>();
  if (field === 'all') {
    const screen = oneLine(texts.ocrText);
    const words = match(screen).words;
    if (words.length) reasons.push(`on screen: '${shorten(screen, MAX_SCREEN_TEXT)}'`);
    for (const w of words) explained.add(w);
  }
  if (field !== 'caption') {
    const spoken = speechAround(match, texts.transcript);
    if (spoken) reasons.push(`speech: '${spoken}'`);
    for (const w of match(texts.transcript).words) explained.add(w);
  }
  if (field === 'caption') {
    const words = match(texts.caption).words.slice(0, MAX_SEEN);
    if (words.length) reasons.push(`caption: ${words.join(', ')}`);
  } else if (field === 'all') {
    const byReason = new Map<LabelReason, Set<string>>(LABEL_REASONS.map((r) => [r, new Set<string>()]));
    for (const l of texts.labels) {
      const words = match(l.label).words;
      if (words.length === 0) continue;
      byReason.get(labelReason(l.source))!.add(l.label);
      for (const w of words) explained.add(w);
    }
    // The caption repeats the on-screen text, the speech and the labels: what it adds is what was seen.
    for (const w of match(texts.caption).words) if (!explained.has(w)) byReason.get('seen')!.add(w);
    for (const reason of LABEL_REASONS) {
      const named = [...byReason.get(reason)!].slice(0, MAX_SEEN);
      if (named.length) reasons.push(`${reason}: ${named.join(', ')}`);
    }
  }
  if (reasons.length === 0 && field === 'all' && match(texts.names).words.length) reasons.push('file name');
  return reasons.join(' · ');
}

/** A few words of speech around the first that matches, with ellipses where the transcript goes on. */
function speechAround(match: WordMatcher, transcript: string): string {
  const words = oneLine(transcript).split(' ').filter(Boolean);
  const at = words.findIndex((w) => match(w).words.length > 0);
  if (at < 0) {
    // A phrase spans words: show the transcript's start when only a phrase matched.
    return match(transcript).words.length ? shorten(words.join(' '), MAX_SCREEN_TEXT) : '';
  }
  const from = Math.max(0, at - SPEECH_BEFORE);
  const to = Math.min(words.length, at + SPEECH_AFTER + 1);
  return `${from > 0 ? '…' : ''}${words.slice(from, to).join(' ')}${to < words.length ? '…' : ''}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/'/g, '’').trim();
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
