import { describe, expect, it } from 'vitest';
import type { Label } from '../types';
import { nameRgb } from './colour-names';
import { colourLabels } from './colour';
import { drawFrame, packagedRgb, photoRgb, solid, type Rgb } from '../../../../test/helpers/test-frames';

const W = 320;
const H = 180;

function words(labels: Label[], source?: string): string[] {
  return labels.filter((l) => !source || l.source === source).map((l) => l.label);
}

function scoreOf(labels: Label[], text: string): number {
  return labels.find((l) => l.label === text)?.score ?? 0;
}

describe('nameRgb', () => {
  it('names colours as people do, in Lab', () => {
    const cases: [Rgb, string][] = [
      [[230, 20, 30], 'red'],
      [[139, 0, 0], 'red'],
      [[255, 140, 0], 'orange'],
      [[250, 220, 30], 'yellow'],
      [[40, 160, 60], 'green'],
      [[30, 80, 200], 'blue'],
      [[135, 206, 235], 'blue'],
      [[0, 0, 128], 'blue'],
      [[120, 30, 140], 'purple'],
      [[255, 182, 193], 'pink'],
      [[120, 70, 30], 'brown'],
      [[250, 250, 250], 'white'],
      [[128, 128, 128], 'gray'],
      [[10, 10, 10], 'black'],
    ];
    for (const [[r, g, b], name] of cases) expect(nameRgb(r, g, b), `${r},${g},${b}`).toBe(name);
  });
});

describe('colourLabels on drawn frames', () => {
  it('names the one colour of a solid frame, and calls it neither colourful nor black and white', () => {
    const labels = colourLabels(solid(W, H, [220, 30, 40]), W, H);
    expect(words(labels, 'colour:frame')).toEqual(['red']);
    expect(scoreOf(labels, 'red')).toBe(1);
  });

  it('reads a blue top third as sky and a green bottom as grass', () => {
    const frame = drawFrame(W, H, (_, y) => (y < H / 3 ? [90, 150, 230] : [60, 150, 50]));
    const labels = colourLabels(frame, W, H);
    expect(words(labels, 'colour:frame')).toEqual(expect.arrayContaining(['green', 'blue', 'colorful', 'daylight']));
    expect(words(labels, 'colour:region')).toEqual(expect.arrayContaining(['sky', 'blue sky', 'grass', 'greenery']));
    expect(words(labels, 'colour:region')).not.toContain('water');
    // Green covers two thirds, blue one: the larger share weighs more.
    expect(scoreOf(labels, 'green')).toBeGreaterThan(scoreOf(labels, 'blue'));
  });

  it('reads an orange top over a dark bottom as a sunset, and blue below as water', () => {
    const frame = drawFrame(W, H, (_, y) =>
      y < H / 3 ? [250, 150, 60] : y < (2 * H) / 3 ? [40, 30, 30] : [20, 60, 140],
    );
    const labels = colourLabels(frame, W, H);
    expect(words(labels, 'colour:region')).toEqual(expect.arrayContaining(['sunset', 'water']));
    expect(words(labels, 'colour:region')).not.toContain('sky');
  });

  it('calls a gray gradient black and white, and a flat gray frame only gray', () => {
    const gradient = drawFrame(W, H, (x) => {
      const v = Math.round((255 * x) / (W - 1));
      return [v, v, v];
    });
    const labels = colourLabels(gradient, W, H);
    expect(words(labels)).toContain('black and white');
    expect(words(labels)).not.toContain('colorful');
    const flat = colourLabels(solid(W, H, [128, 128, 128]), W, H);
    expect(words(flat)).toEqual(['gray']);
  });

  it('tells dark and night from bright daylight', () => {
    // Night: a dark frame with a few lights in it.
    const night = drawFrame(W, H, (x, y) => (x % 40 < 4 && y % 30 < 4 ? [250, 230, 160] : [12, 14, 22]));
    const dark = colourLabels(night, W, H);
    expect(words(dark)).toEqual(expect.arrayContaining(['dark', 'night', 'black']));
    expect(words(dark)).not.toContain('bright');
    // A black frame is a fade: dark, but no night.
    expect(words(colourLabels(solid(W, H, [0, 0, 0]), W, H))).toEqual(['black', 'dark']);
    const day = colourLabels(solid(W, H, [245, 245, 240]), W, H);
    expect(words(day)).toEqual(expect.arrayContaining(['white', 'bright', 'daylight']));
    expect(words(day)).not.toContain('dark');
  });

  it('reads a pillarboxed or letterboxed picture without its bars', () => {
    // A 4:3 picture (sky over grass, shaded across so that no row of it is flat) centred in a 16:9 frame: a quarter of
    // the frame is black bars.
    const picture = (x: number, y: number): Rgb => {
      const shade = (x % 60) - 30;
      return y < H / 3 ? [90 + shade, 150 + shade, 230] : [60, 150 + shade, 50];
    };
    const inset = W / 8;
    const pillarbox = drawFrame(W, H, (x, y) => (x < inset || x >= W - inset ? [0, 0, 0] : picture(x, y)));
    const labels = colourLabels(pillarbox, W, H);
    expect(words(labels)).not.toContain('black');
    expect(words(labels)).not.toContain('dark');
    expect(words(labels, 'colour:region')).toEqual(expect.arrayContaining(['sky', 'blue sky', 'grass']));
    // The same picture with gray bars above and below.
    const letterbox = drawFrame(W, H, (x, y) => (y < 20 || y >= H - 20 ? [128, 128, 128] : picture(x, y)));
    expect(words(colourLabels(letterbox, W, H))).not.toContain('gray');
    // A frame of one colour has no bars to cut: a fade to black stays black and dark.
    expect(words(colourLabels(solid(W, H, [0, 0, 0]), W, H))).toEqual(['black', 'dark']);
  });

  it('calls a frame of many saturated colours colourful', () => {
    const bars: Rgb[] = [
      [230, 30, 30],
      [250, 200, 20],
      [40, 170, 60],
      [30, 80, 210],
      [150, 40, 170],
    ];
    const frame = drawFrame(W, H, (x) => bars[Math.floor((x * bars.length) / W)] ?? [0, 0, 0]);
    const labels = colourLabels(frame, W, H);
    expect(scoreOf(labels, 'colorful')).toBeGreaterThan(0.5);
    // Five hues all round the wheel: many-coloured too.
    expect(words(labels)).toContain('multicolored');
    // At most four colour names, the largest shares.
    expect(
      labels.filter((l) => l.source === 'colour:frame' && !['colorful', 'multicolored'].includes(l.label)),
    ).toHaveLength(4);
  });
});

describe('colourLabels on real photographs', () => {
  it('sees the red cup and the wooden table of the coffee photo, and no sky', async () => {
    const labels = colourLabels(await photoRgb('coffee'), 640, 360);
    expect(words(labels, 'colour:frame')).toEqual(expect.arrayContaining(['orange', 'brown', 'red', 'colorful']));
    expect(words(labels, 'colour:region')).toEqual([]);
    expect(words(labels)).not.toContain('black and white');
  });

  it('sees a mostly gray garage around the red motorcycle', async () => {
    const labels = colourLabels(await photoRgb('motorcycle'), 640, 360);
    expect(labels[0]?.label).toBe('gray');
    expect(words(labels)).not.toContain('sky');
  });
});

describe('many colours on real photographs (Debian opencv-doc, mate-backgrounds)', () => {
  it('calls sweets of every colour on white multicoloured, above any frame that is only saturated', async () => {
    const sweets = colourLabels(await packagedRgb('opencv', 'smarties.png'), 640, 360);
    expect(words(sweets)).toEqual(expect.arrayContaining(['colorful', 'multicolored']));
    // Warm flowers from red to yellow, a football match, a painting in blue and yellow, a mandrill's face: colourful
    // some of them, never more than the sweets, and not many-coloured.
    const others: ['opencv' | 'mate', string][] = [
      ['mate', 'YellowFlower.jpg'],
      ['mate', 'Garden.jpg'],
      ['opencv', 'messi5.jpg'],
      ['opencv', 'starry_night.jpg'],
      ['opencv', 'baboon.jpg'],
      ['opencv', 'fruits.jpg'],
    ];
    for (const [pkg, file] of others) {
      const labels = colourLabels(await packagedRgb(pkg, file), 640, 360);
      expect(words(labels), file).not.toContain('multicolored');
      expect(scoreOf(labels, 'colorful'), file).toBeLessThan(scoreOf(sweets, 'colorful'));
    }
  });
});

describe('sky and weather on real photographs (Debian mate-backgrounds, opencv-doc)', () => {
  const weather = ['cloudy', 'overcast', 'clouds', 'storm clouds', 'dark clouds', 'stormy', 'clear sky'];
  const said = (labels: Label[]): string[] => words(labels, 'colour:region').filter((w) => weather.includes(w));

  it('sees storm clouds over the dark road, and no blue sky in their grey-blue', async () => {
    const labels = colourLabels(await packagedRgb('mate', 'Storm.jpg'), 640, 360);
    expect(said(labels).sort()).toEqual(
      ['cloudy', 'clouds', 'dark clouds', 'overcast', 'storm clouds', 'stormy'].sort(),
    );
    expect(words(labels)).not.toContain('blue sky');
    expect(scoreOf(labels, 'storm clouds')).toBeGreaterThan(0.6);
  });

  it('sees an overcast sky over the lane of brick houses, but no storm', async () => {
    const labels = colourLabels(await packagedRgb('opencv', 'leuvenA.jpg'), 640, 360);
    expect(said(labels).sort()).toEqual(['clouds', 'cloudy', 'overcast']);
  });

  it('sees a clear sky over the dunes', async () => {
    const labels = colourLabels(await packagedRgb('mate', 'Dune.jpg'), 640, 360);
    expect(said(labels)).toEqual(['clear sky']);
  });

  it('says no weather of photographs without a sky: a grey table, a blue backdrop, a city seen from above', async () => {
    const photos: ['opencv' | 'mate', string][] = [
      ['opencv', 'stuff.jpg'],
      ['mate', 'Aqua.jpg'],
      ['opencv', 'aero1.jpg'],
      ['opencv', 'building.jpg'],
      ['opencv', 'basketball1.png'],
      ['mate', 'Wood.jpg'],
      ['opencv', 'home.jpg'],
    ];
    for (const [pkg, file] of photos) {
      expect(said(colourLabels(await packagedRgb(pkg, file), 640, 360)), file).toEqual([]);
    }
    expect(said(colourLabels(await photoRgb('astronaut'), 640, 360))).toEqual([]);
    // The man with the camera stands under a grey sky, in black and white: no telling its weather.
    expect(said(colourLabels(await photoRgb('camera'), 640, 360))).toEqual([]);
  });
});
