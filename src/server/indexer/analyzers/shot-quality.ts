/**
 * How usable a shot's picture is, measured on the keyframe the colour analyzer already holds (no decode, no model):
 * whether it is in focus and whether it is exposed. Search uses it to order hits that match equally well.
 */
export interface ShotQuality {
  /** 0..1: 0 a featureless or badly blurred picture, towards 1 crisp detail. */
  sharpness: number;
  /** 0..1: 1 a picture with its tones in range, towards 0 crushed to black or blown to white. */
  exposure: number;
  /** sharpness x exposure, rounded to three decimals like every stored score. */
  quality: number;
}

/**
 * Frames wider than this are box-averaged down by a whole factor first (to 480-959 px), so one picture reads about the
 * same sharpness whatever size it comes at: a Laplacian sees an edge spread over twice the pixels as half as steep. The
 * indexer's keyframes are 640 px wide (scene-cuts.ts), already downscaled from the source: a softness of a pixel or
 * two at 1080p is under what they can show, a blur that an editor sees on a monitor is not.
 */
const REDUCE_FROM = 480;
/** The Laplacian's contrast ratio (see sharpnessOf) at which sharpness reads 1 - 1/e. */
const SHARP_RATIO = 0.35;
/**
 * Luma steps added to the picture's own spread before dividing by it: sensor and JPEG noise on a flat grey wall would
 * otherwise read as fine detail.
 */
const SPREAD_FLOOR = 12;
/** A luma spread under this is a flat picture (a wall, fog, a blank screen): its sharpness is scaled down by the shortfall. */
const FLAT_SPREAD = 20;
/** Luma at or under this is crushed black, at or over CLIP_HIGH blown white. */
const CLIP_LOW = 8;
const CLIP_HIGH = 247;
/** Mean luma of a mid-grey (18% reflectance) picture in sRGB. */
const MID_GREY = 118;
/** How far (as a share of the way to black or white) the mean luma may stray from mid grey before it costs anything. */
const MEAN_TOLERANCE = 0.45;

/** Sharpness and exposure of a packed RGB frame. */
export function shotQuality(rgb: Uint8Array, width: number, height: number): ShotQuality {
  // Neighbours `d` pixels apart: the Laplacian of a frame of width / d.
  const d = Math.max(1, Math.floor(width / REDUCE_FROM));
  if (width < 3 * d || height < 3 * d || rgb.length < width * height * 3)
    return { sharpness: 0, exposure: 0, quality: 0 };
  const row = width * 3;
  const stats = { n: 0, sum: 0, sum2: 0, lapSum: 0, lapSum2: 0, clipped: 0 };
  // Every other sample of every other sample row: the spread of a quarter of the samples is the spread.
  for (let y = d; y < height - d; y += 2 * d)
    for (let x = d, i = y * row + x * 3; x < width - d; x += 2 * d, i += 6 * d) {
      const v = (77 * rgb[i]! + 150 * rgb[i + 1]! + 29 * rgb[i + 2]!) >> 8;
      // On green, which carries most of the luma's detail, so only the centre pays for a luma sum.
      const g = i + 1;
      const lap = rgb[g - 3 * d]! + rgb[g + 3 * d]! + rgb[g - row * d]! + rgb[g + row * d]! - 4 * rgb[g]!;
      stats.n++;
      stats.sum += v;
      stats.sum2 += v * v;
      stats.lapSum += lap;
      stats.lapSum2 += lap * lap;
      if (v <= CLIP_LOW || v >= CLIP_HIGH) stats.clipped++;
    }
  const sharpness = sharpnessOf(stats);
  const exposure = exposureOf(stats);
  return { sharpness, exposure, quality: Math.round(sharpness * exposure * 1000) / 1000 };
}

interface Sums {
  n: number;
  sum: number;
  sum2: number;
  lapSum: number;
  lapSum2: number;
  clipped: number;
}

/**
 * The standard deviation of the 4-neighbour Laplacian over the picture's own luma spread (plus a noise floor): the
 * Laplacian alone is high for any high-contrast scene, blurred or not, while a blur lowers it against the spread that
 * the blur keeps. Mapped to 0..1 by 1 - e^-(r/SHARP_RATIO), then scaled down for a flat picture.
 */
function sharpnessOf(s: Sums): number {
  const spread = Math.sqrt(Math.max(0, s.sum2 / s.n - (s.sum / s.n) ** 2));
  const lapSpread = Math.sqrt(Math.max(0, s.lapSum2 / s.n - (s.lapSum / s.n) ** 2));
  const flat = Math.min(1, spread / FLAT_SPREAD);
  return flat * (1 - Math.exp(-lapSpread / (spread + SPREAD_FLOOR) / SHARP_RATIO));
}

/**
 * 1 minus the share of clipped pixels (detail lost in crushed shadows or blown highlights), times a penalty for a mean
 * luma far from mid grey (an under- or overexposed picture whose pixels are not yet clipped): none within
 * MEAN_TOLERANCE of the way to black or white, rising linearly to the whole at pure black or white.
 */
function exposureOf(s: Sums): number {
  const mean = s.sum / s.n;
  const off = mean < MID_GREY ? (MID_GREY - mean) / MID_GREY : (mean - MID_GREY) / (255 - MID_GREY);
  const meanPenalty = Math.min(1, Math.max(0, (off - MEAN_TOLERANCE) / (1 - MEAN_TOLERANCE)));
  return (1 - s.clipped / s.n) * (1 - meanPenalty);
}
