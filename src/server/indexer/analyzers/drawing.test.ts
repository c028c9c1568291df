import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagedPhoto } from '../../../../test/fixtures/eval-media';
import { photoPath } from '../../../../test/fixtures/media';
import { INKED_POSTER, stillFrame } from '../../../../test/helpers/still-frame';
import { tempDir } from '../../../../test/helpers/temp';
import type { Label, SegmentFrame } from '../types';
import { DRAWING_MIN, DrawingAnalyzer, drawingLabels } from './drawing';
import { drawnLook } from './drawn-look';
import { packagedRgb } from '../../../../test/helpers/test-frames';
import { contentBox, cropRgb } from './frame-borders';
import { loadNsfwClassifier } from './nsfw-model';
import { lavfi } from '../../../../test/fixtures/generated-clips';

const WORDS = ['artwork', 'cartoon', 'drawing', 'illustration', 'painting'];
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const analyzer = new DrawingAnalyzer();
let dir = '';
let cleanup: () => Promise<void> = async () => {};

function frame(name: string, args: string[]): Promise<SegmentFrame> {
  return stillFrame(dir, name, args);
}

/** A flat-coloured picture drawn with ffmpeg: sky, grass, a house with its roof line, a tree, a title. */
function houseDrawing(): Promise<SegmentFrame> {
  const shapes = [
    'drawbox=x=0:y=240:w=640:h=120:c=0x6cc24a:t=fill',
    'drawbox=x=90:y=150:w=160:h=120:c=0xf28c38:t=fill',
    'drawbox=x=90:y=150:w=160:h=120:c=black:t=5',
    'drawbox=x=150:y=210:w=40:h=60:c=0x7b4a12:t=fill',
    'drawbox=x=390:y=130:w=26:h=130:c=0x8b5a2b:t=fill',
    'drawbox=x=360:y=100:w=90:h=60:c=0x2e8b57:t=fill',
    'drawbox=x=360:y=100:w=90:h=60:c=black:t=4',
    `drawtext=fontfile=${FONT}:text='HOME':fontsize=48:fontcolor=black:x=420:y=40`,
  ];
  return frame('house', [...lavfi('color=c=0x8fd3ff:s=640x360'), '-vf', shapes.join(',')]);
}

async function labelsOf(segment: SegmentFrame): Promise<Label[]> {
  return (await analyzer.analyze(segment)).labels ?? [];
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-drawing-'));
  expect(await analyzer.available()).toEqual({ ok: true });
});

afterAll(async () => {
  await analyzer.close();
  await cleanup();
});

describe('drawing analyzer (nsfwjs Drawing class)', () => {
  it('labels a flat-coloured drawing with every drawing word, weighted by the Drawing probability', async () => {
    const labels = await labelsOf(await houseDrawing());
    expect(labels.map((l) => l.label).sort()).toEqual(WORDS);
    for (const l of labels) {
      expect(l.source).toBe('drawing');
      expect(l.score).toBeGreaterThanOrEqual(DRAWING_MIN);
      expect(l.score).toBe(labels[0]?.score);
    }
  });

  it('labels photographs rendered as drawings (posterized, inked edges)', async () => {
    for (const name of ['motorcycle', 'coffee'] as const) {
      const drawn = await frame(`drawn-${name}`, ['-i', await photoPath(name), '-vf', `scale=640:-2,${INKED_POSTER}`]);
      expect((await labelsOf(drawn)).map((l) => l.label).sort(), name).toEqual(WORDS);
    }
  });

  it('says nothing of photographs, in bars or on a plain card included', async () => {
    const photos: [string, string, string][] = [
      ['astronaut', await photoPath('astronaut'), 'scale=-2:360,pad=640:360:(ow-iw)/2:0'],
      ['coffee', await photoPath('coffee'), 'scale=640:-2'],
      ['motorcycle', await photoPath('motorcycle'), 'scale=640:-2'],
      ['card', await photoPath('astronaut'), 'scale=200:-2,pad=640:360:(ow-iw)/2:(oh-ih)/2:gray'],
    ];
    const frames = await Promise.all(photos.map(([name, file, vf]) => frame(name, ['-i', file, '-vf', vf])));
    for (const [i, f] of frames.entries()) expect(await labelsOf(f), photos[i]?.[0]).toEqual([]);
    // Read whole, the photograph on a grey card looks drawn to nsfwjs: only its bars-trimmed picture is a photograph.
    const card = frames[3]!;
    const whole = await (await loadNsfwClassifier()).classify(await card.rgb(), card.width, card.height);
    expect(whole.Drawing).toBeGreaterThan(DRAWING_MIN);
  });

  it('says nothing of a blank frame (black, plain dark gray), which nsfwjs finds drawn', async () => {
    for (const colour of ['black', '0x222222']) {
      const blank = await frame(`blank-${colour}`, lavfi(`color=c=${colour}:s=640x360`));
      expect(await labelsOf(blank), colour).toEqual([]);
    }
    const gray = await frame('blank-gray', lavfi('color=c=0x222222:s=640x360'));
    expect((await (await loadNsfwClassifier()).classify(await gray.rgb(), 640, 360)).Drawing).toBeGreaterThan(
      DRAWING_MIN,
    );
  });

  it('calls an inked cartoon on white a drawing, though nsfwjs does not, and a painting of strokes a painting', async () => {
    const fit = 'scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2,setsar=1';
    const still = async (pkg: 'opencv' | 'mate', file: string): Promise<SegmentFrame> =>
      frame(file, ['-i', await packagedPhoto(pkg, file), '-vf', fit]);
    const fish = await labelsOf(await still('opencv', 'HappyFish.jpg'));
    expect(fish.map((l) => l.label).sort()).toEqual(['artwork', 'cartoon', 'drawing', 'illustration']);
    const starry = await labelsOf(await still('opencv', 'starry_night.jpg'));
    expect(starry.map((l) => l.label).sort()).toEqual(['artwork', 'painting']);
    // Photographs: a circuit board nsfwjs is half-sure of (its traces run along the axes), fur, a facade, flowers,
    // a city from above, a studio shot on white.
    const photos: ['opencv' | 'mate', string][] = [
      ['opencv', 'board.jpg'],
      ['opencv', 'baboon.jpg'],
      ['opencv', 'building.jpg'],
      ['opencv', 'aero1.jpg'],
      ['opencv', 'smarties.png'],
      ['mate', 'YellowFlower.jpg'],
      ['mate', 'LadyBird.jpg'],
    ];
    for (const [pkg, file] of photos) expect(await labelsOf(await still(pkg, file)), file).toEqual([]);
  });

  it('calls strokes dense everywhere a painting on a hint from nsfwjs, and fur or a circuit board no painting', async () => {
    const look = async (file: string): Promise<ReturnType<typeof drawnLook>> => {
      const rgb = await packagedRgb('opencv', file);
      const box = contentBox(rgb, 640, 360);
      return drawnLook(cropRgb(rgb, 640, box), box.width, box.height);
    };
    // nsfwjs gave the painting 0.54 from the photo and 0.1 from a video keyframe of it: try the low figure.
    expect(drawingLabels(0.1, await look('starry_night.jpg')).map((l) => l.label)).toEqual(['painting', 'artwork']);
    for (const file of ['baboon.jpg', 'board.jpg', 'aero1.jpg']) {
      expect(drawingLabels(0.1, await look(file)), file).toEqual([]);
    }
    // The strokes alone are not enough: without the hint (textured photographs score 0.03 at most) no label.
    expect(drawingLabels(0.02, await look('starry_night.jpg'))).toEqual([]);
  });

  it('labels nothing on one signal alone: nsfwjs sure of a photograph, flat colour, crisp edges, ink lines', async () => {
    const nsfw = await loadNsfwClassifier();
    const fit = 'scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2,setsar=1';
    // Photographs of graffiti on a wall: nsfwjs is sure they are drawn, nothing in their pixels agrees.
    for (const file of ['graf1.png', 'graf3.png']) {
      const graffiti = await frame(file, ['-i', await packagedPhoto('opencv', file), '-vf', fit]);
      const rgb = await graffiti.rgb();
      expect((await nsfw.classify(rgb, 640, 360)).Drawing, file).toBeGreaterThan(DRAWING_MIN);
      expect(await labelsOf(graffiti), file).toEqual([]);
    }
    // The house drawing is flat colour (and nsfwjs agrees); the posters have crisp inked edges (and nsfwjs agrees):
    // without nsfwjs, that one pixel statistic labels nothing.
    const house = await houseDrawing();
    const houseLook = drawnLook(await house.rgb(), house.width, house.height);
    expect(houseLook.flatShare).toBeGreaterThan(0.8);
    expect(drawingLabels(0, houseLook)).toEqual([]);
    expect(
      drawingLabels(0.9, houseLook)
        .map((l) => l.label)
        .sort(),
    ).toEqual(WORDS);
    const poster = await frame('crisp-poster', [
      '-i',
      await photoPath('coffee'),
      '-vf',
      `scale=640:-2,${INKED_POSTER}`,
    ]);
    const posterLook = drawnLook(await poster.rgb(), poster.width, poster.height);
    expect(posterLook.crispness).toBeGreaterThan(0.55);
    expect(posterLook.flatShare).toBeLessThan(0.4);
    expect(drawingLabels(0, posterLook)).toEqual([]);
    // A circuit board has ink-like traces and crisp edges, but neither flat colour nor nsfwjs's word: no label.
    const board = await frame('board', ['-i', await packagedPhoto('opencv', 'board.jpg'), '-vf', fit]);
    const boardLook = drawnLook(await board.rgb(), board.width, board.height);
    expect(boardLook.inkShare).toBeGreaterThan(0.05);
    expect(boardLook.crispness).toBeGreaterThan(0.55);
    expect(drawingLabels(0.5, boardLook)).toEqual([]);
    // Crisp edges are what a lens does not make: every photograph here blurs its strong edges over more pixels.
    for (const name of ['astronaut', 'coffee', 'motorcycle'] as const) {
      const photo = await frame(`crisp-${name}`, ['-i', await photoPath(name), '-vf', 'scale=640:-2']);
      expect(drawnLook(await photo.rgb(), photo.width, photo.height).crispness, name).toBeLessThan(0.5);
    }
  });

  it('finds the picture inside letterbox and pillarbox bars, and keeps a frame without bars whole', async () => {
    const card = await frame('bars', [
      '-i',
      await photoPath('coffee'),
      '-vf',
      'scale=300:200,setsar=1,pad=640:360:100:80:black',
    ]);
    const rgb = await card.rgb();
    const box = contentBox(rgb, card.width, card.height);
    // JPEG blurs the picture's edge by a pixel or two.
    expect(box.x).toBeGreaterThanOrEqual(98);
    expect(box.x).toBeLessThanOrEqual(102);
    expect(box.y).toBeGreaterThanOrEqual(78);
    expect(box.y).toBeLessThanOrEqual(82);
    expect(box.width).toBeGreaterThanOrEqual(296);
    expect(box.width).toBeLessThanOrEqual(304);
    expect(box.height).toBeGreaterThanOrEqual(196);
    expect(box.height).toBeLessThanOrEqual(204);
    expect(cropRgb(rgb, card.width, box)).toHaveLength(box.width * box.height * 3);

    const coffee = await frame('whole', ['-i', await photoPath('coffee'), '-vf', 'scale=640:-2']);
    expect(contentBox(await coffee.rgb(), coffee.width, coffee.height)).toEqual({
      x: 0,
      y: 0,
      width: coffee.width,
      height: coffee.height,
    });
  });
});
