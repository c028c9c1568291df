import type { Label } from '../types';
import { ACHROMATIC, COLOUR_NAMES, type ColourName } from './colour-names';
import { regionStats, type Rect } from './colour-stats';
import { descriptor } from './pixel-analyzer';

export const OBJECT_COLOUR_SOURCE = 'colour:object';

/**
 * Classes never given a colour: the colour in a person's box is skin and clothes, and "white person" or "black
 * person" would describe skin, which is not what a colour search is for and not the indexer's to say.
 */
const UNCOLOURED: ReadonlySet<string> = new Set(['person']);
/** Boxes smaller than this (pixels a side) have too few pixels to name a colour. */
const MIN_BOX_SIDE = 12;
/** The object's colour must cover this weighted share of its box. */
const MIN_OBJECT_SHARE = 0.2;
/** A colour (not white, gray or black) covering this share of the box can name it... */
const MIN_HUE_SHARE = 0.12;
/** ...when it weighs at least this share of the leading white, gray or black. */
const HUE_PREFERENCE = 0.5;
/** How much a colour common just outside the box is discounted inside it (it is likely the background). */
const BACKGROUND_DISCOUNT = 0.6;
/** A colour covering this share of the ring around a box is the ground the object stands on or flies against... */
const BACKGROUND_RING_SHARE = 0.8;
/** ...and names no object whose box also holds other colours on this share: those are likely the object itself. */
const OTHER_COLOURS_SHARE = 0.05;
/** Samples read per region: enough for stable shares, cheap for 30 boxes. */
const SAMPLES = 2500;

export interface DetectedObject {
  label: string;
  score: number;
  /** [x, y, width, height] in frame pixels. */
  box: [number, number, number, number];
}

function stepFor(rect: Rect): number {
  return Math.max(1, Math.floor(Math.sqrt(((rect.x1 - rect.x0) * (rect.y1 - rect.y0)) / SAMPLES)));
}

/**
 * The colour of an object's box: shares weighted by a Gaussian centred on the box (the object fills the middle, the
 * corners are background), then each colour discounted by how much of a ring just outside the box it covers, and a
 * real colour preferred to a somewhat larger white, gray or black. A white car on a white road keeps "white" when
 * nothing else is in the box; a red apple on a white table is red; a red motorcycle with black tyres is red. A box
 * whose colour is its surroundings' (the ring >= 80 % that colour) while other colours are in it gets no colour: the
 * object is the other pixels, too few to name (a black bird against a blue sky is no "blue bird").
 */
export function objectColour(
  rgb: Uint8Array,
  width: number,
  height: number,
  box: [number, number, number, number],
): { name: ColourName; share: number } | null {
  const [bx, by, bw, bh] = box;
  if (!(bw >= MIN_BOX_SIDE && bh >= MIN_BOX_SIDE)) return null;
  const cx = bx + bw / 2;
  const cy = by + bh / 2;
  // A standard deviation of a quarter of the box: the weight falls to 14 % at the box's sides.
  const sx = bw / 4;
  const sy = bh / 4;
  const inside: Rect = { x0: bx, y0: by, x1: bx + bw, y1: by + bh };
  const centred = regionStats(rgb, width, height, inside, {
    step: stepFor(inside),
    weight: (x, y) => Math.exp(-(((x - cx) / sx) ** 2 + ((y - cy) / sy) ** 2) / 2),
  });
  const ringX = Math.max(2, bw * 0.12);
  const ringY = Math.max(2, bh * 0.12);
  const outer: Rect = { x0: bx - ringX, y0: by - ringY, x1: bx + bw + ringX, y1: by + bh + ringY };
  const outside = regionStats(rgb, width, height, outer, {
    step: stepFor(outer),
    weight: (x, y) => (x >= bx && x < bx + bw && y >= by && y < by + bh ? 0 : 1),
  });
  const candidates = COLOUR_NAMES.map((name, k) => {
    const part = centred.shares[k] ?? 0;
    return { name, share: part, adjusted: part * (1 - BACKGROUND_DISCOUNT * (outside.shares[k] ?? 0)) };
  }).filter((c) => c.share >= (ACHROMATIC.has(c.name) ? MIN_OBJECT_SHARE : MIN_HUE_SHARE));
  const ranked = candidates.sort((a, b) => b.adjusted - a.adjusted);
  const top = ranked[0];
  if (!top) return null;
  // Tyres, windows, chrome and shadows are black, gray and white on any vehicle: people name it by its paint.
  const hue = ranked.find((c) => !ACHROMATIC.has(c.name) && c.adjusted >= HUE_PREFERENCE * top.adjusted);
  const best = hue ?? top;
  // A small bird against the sky fills a tenth of its box: the box is the sky's colour, the bird's too few pixels.
  const k = COLOUR_NAMES.indexOf(best.name);
  const others = 1 - (centred.shares[k] ?? 0);
  if ((outside.shares[k] ?? 0) >= BACKGROUND_RING_SHARE && others >= OTHER_COLOURS_SHARE) return null;
  return { name: best.name, share: best.share };
}

/** "<colour> <class>" for each detected object's box, weighted by the detection's score and the colour's share. */
export function objectColourLabels(rgb: Uint8Array, width: number, height: number, objects: DetectedObject[]): Label[] {
  const labels: Label[] = [];
  for (const object of objects) {
    if (UNCOLOURED.has(object.label)) continue;
    const colour = objectColour(rgb, width, height, object.box);
    if (!colour) continue;
    labels.push(
      descriptor(`${colour.name} ${object.label}`, object.score * (0.4 + colour.share), OBJECT_COLOUR_SOURCE),
    );
  }
  return labels;
}
