import type { Label } from '../types';
import { ACHROMATIC, type ColourName } from './colour-names';
import { rankedColours, share, type ColourStats } from './colour-stats';
import { descriptor as label } from './pixel-analyzer';

export const FRAME_SOURCE = 'colour:frame';
export const REGION_SOURCE = 'colour:region';

/** A named colour must cover this share of the frame to be named: a few red pixels do not make a red shot. */
export const MIN_FRAME_SHARE = 0.08;
/** At most this many colour names per frame, largest first. */
const MAX_FRAME_COLOURS = 4;
/** A region word needs its colour on this share of its region. */
const MIN_REGION_SHARE = 0.35;

/** Saturation alone (Hasler-Süsstrunk) makes a frame colourful at most this much: many hues make it more. */
const COLOURFUL_MAX = 0.8;
/** Many-coloured: vivid pixels cover this share of the frame... */
const MIN_MULTICOLOURED_VIVID = 0.05;
/** ...with hues this spread round the wheel (circular variance; measured: sweets of every colour 0.62, a football
 * match 0.42, a painting in blue and yellow 0.43, warm flowers 0.02-0.12). */
const MIN_MULTICOLOURED_SPREAD = 0.5;
/** Hasler-Süsstrunk colourfulness a top third needs to be a blue sky: under it the blue is the dull grey-blue of clouds. */
const MIN_BLUE_SKY_COLOURFULNESS = 25;
/** Mean lightness step (see ColourStats.roughness) under which a blue top third has no cloud edges in it. */
const CLEAR_SKY_ROUGHNESS = 1.5;
/** Clouds: the top third's colourfulness under this (grey, white, dull blue)... */
const CLOUD_MAX_COLOURFULNESS = 30;
/** ...lighter than the bottom third by this much (the sky is lit, the land under it is not)... */
const SKY_OVER_LAND = 20;
/** ...and no rougher than this: a hazy city, foliage or a wall of windows in the top third is not a sky. */
const CLOUD_MAX_ROUGHNESS = 3;
/** Clouds darker than this (Lab lightness of the top third) are storm clouds. */
const STORM_LIGHTNESS = 58;

/** Weight of a colour covering `fraction` of the frame: 0.37 at the 8 % threshold, 1 from 50 %. */
export function coverageScore(fraction: number): number {
  return Math.min(1, 0.25 + 1.5 * fraction);
}

/** Named colours, colourfulness, black and white, and brightness of a whole frame. */
export function frameLabels(frame: ColourStats, top: ColourStats): Label[] {
  const labels: Label[] = [];
  for (const { name, share: part } of rankedColours(frame).slice(0, MAX_FRAME_COLOURS)) {
    if (part >= MIN_FRAME_SHARE) labels.push(label(name, coverageScore(part), FRAME_SOURCE));
  }
  const m = frame.colourfulness;
  // Hasler and Süsstrunk: 59 "quite", 82 "highly" colourful. One saturated colour alone (a red wall) is red, not colourful.
  const hues = rankedColours(frame).filter((c) => !ACHROMATIC.has(c.name) && c.share >= 0.05).length;
  // Many colours: vivid hues from all round the wheel (sweets, balloons), not one warm range however saturated.
  const multicoloured = frame.vividShare >= MIN_MULTICOLOURED_VIVID && frame.hueSpread >= MIN_MULTICOLOURED_SPREAD;
  const colourful = m >= 50 && hues >= 2 ? COLOURFUL_MAX * Math.min(1, (m - 35) / 50) : 0;
  const many = multicoloured ? 0.5 + frame.hueSpread : 0;
  if (colourful > 0 || many > 0) labels.push(label('colorful', Math.max(colourful, many), FRAME_SOURCE));
  if (multicoloured) labels.push(label('multicolored', many, FRAME_SOURCE));
  const achromatic = [...ACHROMATIC].reduce((sum, name) => sum + share(frame, name), 0);
  // A flat gray frame is gray, not a black and white picture: that needs light and shadow.
  if (achromatic >= 0.97 && m < 8 && frame.lightnessSpread >= 15) {
    labels.push(label('black and white', 0.5 + frame.lightnessSpread / 60, FRAME_SOURCE));
  }
  const l = frame.meanLightness;
  if (l < 30) labels.push(label('dark', 0.3 + (30 - l) / 20, FRAME_SOURCE));
  // Night: mostly dark, yet with some light in it (a black frame is a fade, not a night).
  if (l < 25 && frame.darkShare >= 0.6 && frame.lightnessSpread >= 8) {
    labels.push(label('night', 0.2 + (25 - l) / 25, FRAME_SOURCE));
  }
  if (l >= 65) labels.push(label('bright', (l - 55) / 30, FRAME_SOURCE));
  // Daylight: a bright frame whose upper part, where sky and light sources are, is bright too.
  const lit = Math.min(l, top.meanLightness);
  if (l >= 50 && top.meanLightness >= 60) labels.push(label('daylight', (0.8 * (lit - 40)) / 30, FRAME_SOURCE));
  return labels;
}

function sum(stats: ColourStats, names: ColourName[]): number {
  return names.reduce((total, name) => total + share(stats, name), 0);
}

/** Words for what a colour usually is where it sits: a blue top third is sky, a green lower third grass. */
export function regionLabels(frame: ColourStats, top: ColourStats, bottom: ColourStats): Label[] {
  const labels: Label[] = [];
  const blueTop = share(top, 'blue');
  // Sky with clouds: blue with white and light gray.
  const cloudy = blueTop >= 0.2 && blueTop + share(top, 'white') + share(top, 'gray') >= 0.7;
  // A dull grey-blue top (a storm, an overcast day) is sky but not a blue one.
  const vivid = top.colourfulness >= MIN_BLUE_SKY_COLOURFULNESS;
  if (top.meanLightness >= 35 && (blueTop >= MIN_REGION_SHARE || cloudy)) {
    labels.push(label('sky', 0.3 + blueTop, REGION_SOURCE));
    if (blueTop >= MIN_REGION_SHARE && vivid) labels.push(label('blue sky', 0.2 + blueTop, REGION_SOURCE));
    // Clear: a blue that stays smooth across the third (no cloud edges), no white or gray patches of cloud, and no darker
    // than the land it lights (a blue backdrop behind a lit subject is no sky).
    const clouds = share(top, 'white') + share(top, 'gray');
    const litFromAbove = top.meanLightness >= bottom.meanLightness - 5;
    if (blueTop >= MIN_REGION_SHARE && vivid && litFromAbove && top.roughness < CLEAR_SKY_ROUGHNESS && clouds < 0.15) {
      labels.push(label('clear sky', 0.2 + blueTop - clouds, REGION_SOURCE));
    }
  }
  labels.push(...weatherLabels(frame, top, bottom));
  const warmTop = sum(top, ['orange', 'pink', 'red', 'yellow', 'purple']);
  // A sunset lights the sky over a darker land: a warm top well above the bottom's lightness (a wooden table seen from
  // above is warm at the top too, but lit evenly).
  const glowing = top.meanLightness >= 55 && top.meanLightness >= bottom.meanLightness + 15;
  if (warmTop >= MIN_REGION_SHARE && sum(top, ['orange', 'pink', 'red']) >= 0.2 && glowing) {
    labels.push(label('sunset', 0.8 * warmTop, REGION_SOURCE));
  }
  const lit = frame.lightnessSpread >= 8;
  if (lit && top.darkShare >= 0.7 && frame.meanLightness < 30 && share(top, 'black') + share(top, 'blue') >= 0.7) {
    labels.push(label('night sky', 0.3 + top.darkShare / 3, REGION_SOURCE));
  }
  const greenBottom = share(bottom, 'green');
  if (greenBottom >= MIN_REGION_SHARE) labels.push(label('grass', 0.2 + greenBottom, REGION_SOURCE));
  const green = share(frame, 'green');
  if (green >= MIN_REGION_SHARE || greenBottom >= MIN_REGION_SHARE) {
    labels.push(label('greenery', 0.2 + Math.max(green, greenBottom), REGION_SOURCE));
  }
  const blueBottom = share(bottom, 'blue');
  if (blueBottom >= MIN_REGION_SHARE) labels.push(label('water', 0.1 + blueBottom, REGION_SOURCE));
  return labels;
}

/**
 * Weather of the top third: a colourless (grey, white, dull blue), not too textured top third over darker land is a
 * cloudy sky ("cloudy", "overcast", "clouds"), a dark one storm clouds. A black and white frame says nothing of it: its
 * grey top could be any sky.
 */
export function weatherLabels(frame: ColourStats, top: ColourStats, bottom: ColourStats): Label[] {
  const dull = sum(top, ['gray', 'white', 'blue', 'black']) >= 0.85 && top.colourfulness < CLOUD_MAX_COLOURFULNESS;
  const lit = top.meanLightness >= 30 && top.meanLightness <= 85;
  const aboveLand = top.meanLightness - bottom.meanLightness;
  const inColour = frame.colourfulness >= 5;
  if (!(inColour && dull && lit && aboveLand >= SKY_OVER_LAND && top.roughness < CLOUD_MAX_ROUGHNESS)) return [];
  const weight = 0.5 + 0.5 * Math.min(1, aboveLand / 40);
  const labels = ['cloudy', 'overcast', 'clouds'].map((word) => label(word, weight, REGION_SOURCE));
  if (top.meanLightness < STORM_LIGHTNESS) {
    const storm = 0.4 + (STORM_LIGHTNESS - top.meanLightness) / 20;
    labels.push(...['storm clouds', 'dark clouds', 'stormy'].map((word) => label(word, storm, REGION_SOURCE)));
  }
  return labels;
}
