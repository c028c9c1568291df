import { BLANK_SPREAD } from '../blank-frame';
import type { Label } from '../types';
import type { DrawnLook } from './drawn-look';
import { descriptor } from './pixel-analyzer';

export const DRAWING_SOURCE = 'drawing';

/**
 * nsfwjs's Drawing probability from which the model says drawn. Measured on 640 px keyframes: photographs score
 * 0.001 to 0.5 (a grey portrait 0.44, black bars around a photograph change nothing), photographs of graffiti 0.72 and
 * 0.92, posterized renders with ink edges 0.6 to 0.99; one photograph in python3-skimage's set (a rocket launch against
 * a white sky) scores 0.81. nsfwjs tells drawn from photographed, not cartoon from painting: a drawn frame gets all
 * five words.
 */
export const DRAWING_MIN = 0.6;
const DRAWING_WORDS = ['drawing', 'cartoon', 'illustration', 'painting', 'artwork'];
/** Flat colour: this share of the picture without a gray step (drawings 0.65-0.9; photographs of graffiti 0.13-0.17). */
const FLAT_MIN = 0.4;
/** Crisp edges (drawn-look.ts): inked posters 0.53-0.72, photographs 0.31-0.51 (a circuit board 0.61-0.63). */
const CRISP_MIN = 0.52;
/** Ink lines: this share of the picture on thin dark lines (an inked fish 0.034; a circuit board 0.074, not flat). */
const INKED_MIN_INK = 0.025;
const INKED_WORDS = ['drawing', 'cartoon', 'illustration', 'artwork'];
/** A painting: nsfwjs half-sure it is drawn (measured: two paintings 0.46-0.55, photographs up to 0.51)... */
const PAINTED_MIN_DRAWING = 0.45;
/** ...no flat part (< 5 % flat, the smoothest tenth still textured)... */
const PAINTED_MAX_FLAT = 0.05;
const PAINTED_MIN_TEXTURE_FLOOR = 5;
/** ...and strokes every way: a circuit board's or a facade's edges run along the axes (0.28-0.3, paintings 0.17-0.2). */
const PAINTED_MAX_AXIS_SHARE = 0.25;
const PAINTED_WORDS = ['painting', 'artwork'];
/**
 * Texture floor from which the strokes need only a hint from nsfwjs (measured: a painting 11.2-12; photographs of fur,
 * foliage, a city from above 1-7.1; a circuit board 12.5, kept out by its axis share)...
 */
const PAINTED_DENSE_TEXTURE_FLOOR = 8;
/**
 * ...the hint: nsfwjs gave the painting 0.54 from the photograph, 0.16 and 0.1 from video keyframes of it, and every
 * textured photograph with a texture floor of 4 or more 0.03 at most.
 */
const PAINTED_DENSE_MIN_DRAWING = 0.08;

/** The signs of a drawn picture, each at its own threshold; one alone labels nothing. */
export const DRAWN_SIGNALS = ['nsfwjs', 'flat colour', 'crisp edges', 'ink lines', 'brush strokes'] as const;
export type DrawnSignal = (typeof DRAWN_SIGNALS)[number];

/** The signs of a drawn picture a frame shows: nsfwjs's Drawing probability and the pixel statistics of its look. */
export function drawnSignals(drawing: number, look: DrawnLook): DrawnSignal[] {
  const signals: DrawnSignal[] = [];
  if (drawing >= DRAWING_MIN) signals.push('nsfwjs');
  if (look.flatShare >= FLAT_MIN) signals.push('flat colour');
  if (look.crispness >= CRISP_MIN) signals.push('crisp edges');
  if (look.inkShare >= INKED_MIN_INK) signals.push('ink lines');
  if (
    look.flatShare < PAINTED_MAX_FLAT &&
    look.textureFloor >= PAINTED_MIN_TEXTURE_FLOOR &&
    look.axisShare < PAINTED_MAX_AXIS_SHARE
  )
    signals.push('brush strokes');
  return signals;
}

/**
 * The drawing labels of a frame. No signal decides alone: each label needs two that agree, nsfwjs's Drawing probability
 * and a pixel statistic of the picture's drawn look (flat colour, crisp edges, brush strokes), or two pixel statistics
 * of different kinds (ink lines around flat colour, for the cartoon nsfwjs misses). From DRAWING_MIN with flat colour or
 * crisp edges, every word at that probability; ink lines with flat colour give the drawing words but "painting"; brush
 * strokes everywhere with nsfwjs half-sure, or with strokes so dense and nsfwjs's hint, give "painting" and "artwork".
 * Each word takes its largest weight. A blank frame gets none.
 */
export function drawingLabels(drawing: number, look: DrawnLook): Label[] {
  if (look.spread < BLANK_SPREAD) return [];
  const weights = new Map<string, number>();
  const add = (words: string[], weight: number): void => {
    for (const w of words) weights.set(w, Math.max(weights.get(w) ?? 0, weight));
  };
  const signals = new Set(drawnSignals(drawing, look));
  const flat = signals.has('flat colour');
  if (signals.has('nsfwjs') && (flat || signals.has('crisp edges'))) add(DRAWING_WORDS, drawing);
  if (flat && signals.has('ink lines')) {
    add(INKED_WORDS, DRAWING_MIN + 4 * (look.inkShare - INKED_MIN_INK) + 0.3 * (look.flatShare - FLAT_MIN));
  }
  // Brush strokes need nsfwjs half-sure, or only its hint when they are dense everywhere.
  if (signals.has('brush strokes')) {
    if (drawing >= PAINTED_MIN_DRAWING) add(PAINTED_WORDS, drawing + 0.25);
    if (look.textureFloor >= PAINTED_DENSE_TEXTURE_FLOOR && drawing >= PAINTED_DENSE_MIN_DRAWING)
      add(PAINTED_WORDS, 0.5 + drawing);
  }
  return [...weights].map(([label, weight]) => descriptor(label, weight, DRAWING_SOURCE));
}
