/**
 * Named colours of sRGB pixels, decided in CIE Lab (D65) as lightness, chroma and hue: distances there follow what
 * people see, so a dark orange is "brown" and a pale red is "pink" the way a person would say it. Every pixel is
 * looked up in a table of 32 x 32 x 32 RGB cells (each cell named by its centre), built once.
 */

export const COLOUR_NAMES = [
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'purple',
  'pink',
  'brown',
  'white',
  'gray',
  'black',
] as const;
export type ColourName = (typeof COLOUR_NAMES)[number];

export const ACHROMATIC: ReadonlySet<ColourName> = new Set(['white', 'gray', 'black']);

export interface Lch {
  /** Lightness, 0 (black) .. 100 (white). */
  l: number;
  /** Chroma, 0 (gray) .. about 130 (the most saturated sRGB colours). */
  c: number;
  /** Hue angle in degrees, 0..360 (red about 40, yellow 100, green 136, blue 306). */
  h: number;
}

function linear(channel: number): number {
  const v = channel / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

function labF(t: number): number {
  return t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116;
}

/** sRGB (0..255 each) to CIE LCh(ab), D65 white. */
export function rgbToLch(r: number, g: number, b: number): Lch {
  const R = linear(r);
  const G = linear(g);
  const B = linear(b);
  const x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047;
  const y = 0.2126729 * R + 0.7151522 * G + 0.072175 * B;
  const z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / 1.08883;
  const fx = labF(x);
  const fy = labF(y);
  const fz = labF(z);
  const l = 116 * fy - 16;
  const a = 500 * (fx - fy);
  const bb = 200 * (fy - fz);
  const h = (Math.atan2(bb, a) * 180) / Math.PI;
  return { l, c: Math.hypot(a, bb), h: h < 0 ? h + 360 : h };
}

/**
 * The colour word for one LCh value. Below a chroma that grows a little with lightness a colour reads as gray; hue
 * bands follow the Lab angles of the sRGB colours people name (red 40, orange 65, yellow 100, green 136, blue 306,
 * purple 325); dark orange to yellow is brown, light red to magenta pink.
 */
export function nameLch({ l, c, h }: Lch): ColourName {
  if (l < 18 && c < 40) return 'black';
  const grayChroma = 9 + l * 0.06;
  if (c < grayChroma) return l > 85 ? 'white' : l < 28 ? 'black' : 'gray';
  if ((h >= 45 && h < 100 && l < 50 && c < 70) || (h >= 20 && h < 45 && l < 40 && c < 45)) return 'brown';
  if (h < 20 || h >= 345 || (h >= 20 && h < 45 && c < 45)) return l > 58 ? 'pink' : 'red';
  if (h < 50) return 'red';
  if (h < 82) return 'orange';
  if (h < 112) return l < 52 ? 'green' : 'yellow';
  if (h < 195) return 'green';
  if (h < 312) return 'blue';
  return l > 60 && c < 70 ? 'pink' : 'purple';
}

export function nameRgb(r: number, g: number, b: number): ColourName {
  return nameLch(rgbToLch(r, g, b));
}

export interface ColourTable {
  /** Index into COLOUR_NAMES of each cell. */
  name: Uint8Array;
  /** Lab lightness of each cell, rounded. */
  lightness: Uint8Array;
  /** Lab chroma of each cell, rounded (at most 255). */
  chroma: Uint8Array;
  /** Cosine and sine of each cell's Lab hue angle. */
  hueCos: Float32Array;
  hueSin: Float32Array;
}

let table: ColourTable | null = null;

/** The lookup table, built on first use (32,768 cells, a few milliseconds). */
export function colourTable(): ColourTable {
  if (table) return table;
  const name = new Uint8Array(32768);
  const lightness = new Uint8Array(32768);
  const chroma = new Uint8Array(32768);
  const hueCos = new Float32Array(32768);
  const hueSin = new Float32Array(32768);
  for (let r = 0; r < 32; r++) {
    for (let g = 0; g < 32; g++) {
      for (let b = 0; b < 32; b++) {
        const lch = rgbToLch(r * 8 + 4, g * 8 + 4, b * 8 + 4);
        const cell = (r << 10) | (g << 5) | b;
        name[cell] = COLOUR_NAMES.indexOf(nameLch(lch));
        lightness[cell] = Math.round(lch.l);
        chroma[cell] = Math.min(255, Math.round(lch.c));
        hueCos[cell] = Math.cos((lch.h * Math.PI) / 180);
        hueSin[cell] = Math.sin((lch.h * Math.PI) / 180);
      }
    }
  }
  table = { name, lightness, chroma, hueCos, hueSin };
  return table;
}

/** The table cell of the pixel at byte offset `i` of packed RGB. */
export function cellAt(rgb: Uint8Array, i: number): number {
  return (((rgb[i] ?? 0) >> 3) << 10) | (((rgb[i + 1] ?? 0) >> 3) << 5) | ((rgb[i + 2] ?? 0) >> 3);
}
