import { cellAt, COLOUR_NAMES, colourTable, type ColourName } from './colour-names';

/** A rectangle of a frame in pixels, [x0, x1) x [y0, y1). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What the pixels of a region look like, each figure weighted by the pixels' weights. */
export interface ColourStats {
  /** Share (0..1) of each named colour, by COLOUR_NAMES index. */
  shares: Float64Array;
  /** Mean Lab lightness, 0..100. */
  meanLightness: number;
  /** Standard deviation of the lightness: a flat frame has none, a black and white film a lot. */
  lightnessSpread: number;
  /** Share of pixels darker than Lab lightness 20. */
  darkShare: number;
  /** Hasler and Süsstrunk's colourfulness M (2003): under 15 hardly any colour, over 60 quite colourful, over 80 highly. */
  colourfulness: number;
  /** Mean lightness step between neighbouring samples of a row: low for sky and still water, high for foliage, wood. */
  roughness: number;
  /** Share of vivid pixels (Lab chroma >= 40). */
  vividShare: number;
  /**
   * Circular variance (0..1) of the vivid pixels' hue angles: 0 when they are all one hue (a red wall, warm flowers
   * from red to yellow stay under 0.15), towards 1 when hues all round the wheel share the picture (sweets of every colour).
   */
  hueSpread: number;
}

/** Lab chroma from which a pixel's colour is vivid. */
const VIVID_CHROMA = 40;

export interface StatsOptions {
  /** Every `step`-th pixel of every `step`-th row is read: a 640 px frame needs no more than a quarter of its pixels. */
  step?: number;
  /** Weight of the pixel at (x, y), default 1. */
  weight?: (x: number, y: number) => number;
}

export function share(stats: ColourStats, name: ColourName): number {
  return stats.shares[COLOUR_NAMES.indexOf(name)] ?? 0;
}

/** Colour figures of `rect` (clipped to the frame) of a packed RGB frame. */
export function regionStats(
  rgb: Uint8Array,
  width: number,
  height: number,
  rect: Rect,
  options: StatsOptions = {},
): ColourStats {
  const { step = 2, weight } = options;
  const { name, lightness, chroma, hueCos, hueSin } = colourTable();
  const shares = new Float64Array(COLOUR_NAMES.length);
  const x0 = Math.max(0, Math.floor(rect.x0));
  const y0 = Math.max(0, Math.floor(rect.y0));
  const x1 = Math.min(width, Math.ceil(rect.x1));
  const y1 = Math.min(height, Math.ceil(rect.y1));
  let total = 0;
  let sumL = 0;
  let sumL2 = 0;
  let dark = 0;
  let sumRg = 0;
  let sumRg2 = 0;
  let sumYb = 0;
  let sumYb2 = 0;
  let steps = 0;
  let stepSum = 0;
  let vivid = 0;
  let sumCos = 0;
  let sumSin = 0;
  for (let y = y0; y < y1; y += step) {
    let previous = -1;
    for (let x = x0; x < x1; x += step) {
      const w = weight ? weight(x, y) : 1;
      if (!(w > 0)) continue;
      const i = (y * width + x) * 3;
      const cell = cellAt(rgb, i);
      const l = lightness[cell] ?? 0;
      if (previous >= 0) {
        stepSum += w * Math.abs(l - previous);
        steps += w;
      }
      previous = l;
      const named = name[cell] ?? 0;
      shares[named] = (shares[named] ?? 0) + w;
      total += w;
      sumL += w * l;
      sumL2 += w * l * l;
      if (l < 20) dark += w;
      if ((chroma[cell] ?? 0) >= VIVID_CHROMA) {
        vivid += w;
        sumCos += w * (hueCos[cell] ?? 0);
        sumSin += w * (hueSin[cell] ?? 0);
      }
      const r = rgb[i] ?? 0;
      const g = rgb[i + 1] ?? 0;
      const b = rgb[i + 2] ?? 0;
      const rg = r - g;
      const yb = (r + g) / 2 - b;
      sumRg += w * rg;
      sumRg2 += w * rg * rg;
      sumYb += w * yb;
      sumYb2 += w * yb * yb;
    }
  }
  if (total === 0) {
    const none = { meanLightness: 0, lightnessSpread: 0, darkShare: 0, colourfulness: 0, roughness: 0 };
    return { shares, ...none, vividShare: 0, hueSpread: 0 };
  }
  for (let k = 0; k < shares.length; k++) shares[k] = (shares[k] ?? 0) / total;
  const meanL = sumL / total;
  const meanRg = sumRg / total;
  const meanYb = sumYb / total;
  const varRg = Math.max(0, sumRg2 / total - meanRg * meanRg);
  const varYb = Math.max(0, sumYb2 / total - meanYb * meanYb);
  return {
    shares,
    meanLightness: meanL,
    lightnessSpread: Math.sqrt(Math.max(0, sumL2 / total - meanL * meanL)),
    darkShare: dark / total,
    colourfulness: Math.sqrt(varRg + varYb) + 0.3 * Math.hypot(meanRg, meanYb),
    roughness: steps > 0 ? stepSum / steps : 0,
    vividShare: vivid / total,
    hueSpread: vivid > 0 ? 1 - Math.hypot(sumCos, sumSin) / vivid : 0,
  };
}

/** The named colours of some stats, largest share first. */
export function rankedColours(stats: ColourStats): { name: ColourName; share: number }[] {
  return COLOUR_NAMES.map((name, k) => ({ name, share: stats.shares[k] ?? 0 }))
    .filter((c) => c.share > 0)
    .sort((a, b) => b.share - a.share);
}
