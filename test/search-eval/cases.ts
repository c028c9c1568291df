import { DRAWN_TEXT } from '../fixtures/media';

/** The media the evaluation indexes, by key. */
export type EvalMedia = 'drawnText' | 'speech' | 'photos' | 'phone' | 'titled';

export interface EvalCase {
  query: string;
  /** The right answer: a segment of this video overlapping [start, end] seconds. */
  expect: { media: EvalMedia; start: number; end: number };
  /** What the case exercises, for reading the per-case table. */
  kind: 'ocr' | 'speech' | 'objects' | 'synonym' | 'metadata' | 'phrase';
}

/**
 * Queries a user would type, with the answer a person looking at the footage would give. Cases the engine is known
 * to miss stay in: the figures must show misses too.
 */
export const EVAL_CASES: EvalCase[] = [
  { query: DRAWN_TEXT.toLowerCase(), expect: { media: 'drawnText', start: 0, end: 4 }, kind: 'ocr' },
  { query: 'lights', expect: { media: 'drawnText', start: 0, end: 4 }, kind: 'ocr' },
  { query: 'sunset', expect: { media: 'speech', start: 0, end: 4.2 }, kind: 'speech' },
  { query: '"two small boats"', expect: { media: 'speech', start: 0, end: 4.2 }, kind: 'phrase' },
  { query: 'we filmed the harbour', expect: { media: 'speech', start: 0, end: 4.2 }, kind: 'speech' },
  { query: 'motorcycle', expect: { media: 'photos', start: 3, end: 6 }, kind: 'objects' },
  { query: 'motorbike', expect: { media: 'photos', start: 3, end: 6 }, kind: 'synonym' },
  { query: 'person', expect: { media: 'photos', start: 0, end: 3 }, kind: 'objects' },
  { query: 'someone', expect: { media: 'photos', start: 0, end: 3 }, kind: 'synonym' },
  { query: 'cup', expect: { media: 'photos', start: 6, end: 9 }, kind: 'objects' },
  { query: 'coffee', expect: { media: 'photos', start: 6, end: 9 }, kind: 'synonym' },
  { query: 'astronaut', expect: { media: 'photos', start: 0, end: 3 }, kind: 'synonym' },
  { query: 'iphone', expect: { media: 'phone', start: 0, end: 3 }, kind: 'metadata' },
  { query: 'chapter two', expect: { media: 'titled', start: 8, end: 20 }, kind: 'ocr' },
  { query: 'sunset over the bay', expect: { media: 'titled', start: 20, end: 27 }, kind: 'ocr' },
  { query: 'interview', expect: { media: 'titled', start: 27, end: 42 }, kind: 'ocr' },
  { query: 'night market', expect: { media: 'titled', start: 42, end: 52 }, kind: 'ocr' },
  { query: 'the end', expect: { media: 'titled', start: 52, end: 60 }, kind: 'ocr' },
];
