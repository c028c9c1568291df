import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoPath, type PhotoName } from '../../../../test/fixtures/media';
import { stillFrame } from '../../../../test/helpers/still-frame';
import { tempDir } from '../../../../test/helpers/temp';
import { ColourAnalyzer } from './colour';
import { shotQuality, type ShotQuality } from './shot-quality';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

/** ffmpeg renders `input` through `filter` as the indexer's JPEG keyframe; measured on its decoded pixels. */
async function measure(name: string, input: string[], filter: string): Promise<ShotQuality> {
  const frame = await stillFrame(dir, name, [...input, '-vf', filter]);
  return shotQuality(await frame.rgb(), frame.width, frame.height);
}

const pattern = ['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=1'];
const photo = async (name: PhotoName): Promise<string[]> => ['-i', await photoPath(name)];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-shot-quality-'));
});

afterAll(async () => {
  await cleanup();
});

describe('shot quality on real pixels', () => {
  it('reads a test pattern and photographs as sharper than the same under a Gaussian blur', async () => {
    const sharp = await measure('pattern', pattern, 'null');
    const blurred = await measure('pattern-blur', pattern, 'gblur=sigma=2');
    expect(sharp.sharpness).toBeGreaterThan(0.5);
    expect(blurred.sharpness).toBeLessThan(sharp.sharpness / 2);
    expect(blurred.quality).toBeLessThan(sharp.quality);
    for (const name of ['coffee', 'motorcycle', 'camera'] as const) {
      const input = await photo(name);
      const crisp = await measure(name, input, 'scale=640:-2');
      const soft = await measure(`${name}-blur`, input, 'scale=640:-2,gblur=sigma=1.5');
      expect(soft.sharpness, name).toBeLessThan(crisp.sharpness * 0.6);
      // A blur changes the tones hardly at all: only the sharpness tells these apart.
      expect(Math.abs(soft.exposure - crisp.exposure), name).toBeLessThan(0.05);
    }
  });

  it('reads a very dark and a blown-out version as badly exposed, the normal one as well exposed', async () => {
    for (const name of ['coffee', 'motorcycle'] as const) {
      const input = await photo(name);
      const normal = await measure(name, input, 'scale=640:-2');
      const dark = await measure(`${name}-dark`, input, 'scale=640:-2,eq=brightness=-0.45');
      const blown = await measure(`${name}-blown`, input, 'scale=640:-2,eq=brightness=0.5');
      expect(normal.exposure, name).toBeGreaterThan(0.9);
      expect(dark.exposure, name).toBeLessThan(0.5);
      expect(blown.exposure, name).toBeLessThan(0.5);
      expect(Math.max(dark.quality, blown.quality), name).toBeLessThan(normal.quality / 2);
    }
  });

  it('reads about the same sharpness whatever size the frame comes at', async () => {
    const input = await photo('coffee');
    const small = await measure('coffee-640', input, 'scale=640:-2');
    const large = await measure('coffee-1280', input, 'scale=1280:-2');
    expect(Math.abs(small.sharpness - large.sharpness)).toBeLessThan(0.08);
  });

  it('does not read sensor noise on a flat grey wall, nor a black frame, as a good shot', async () => {
    const wall = await measure('wall', ['-f', 'lavfi', '-i', 'color=gray:size=640x360'], 'noise=alls=8:allf=t');
    const sharp = await measure('pattern', pattern, 'null');
    expect(wall.quality).toBeLessThan(sharp.quality / 3);
    const black = await measure('black', ['-f', 'lavfi', '-i', 'color=black:size=640x360'], 'null');
    expect(black).toEqual({ sharpness: 0, exposure: 0, quality: 0 });
  });

  it("is what the colour analyzer reports, measured without the frame's black bars", async () => {
    const boxed = await stillFrame(dir, 'boxed', [
      ...(await photo('coffee')),
      '-vf',
      'scale=480:-2,pad=640:360:(ow-iw)/2:(oh-ih)/2:black',
    ]);
    const found = await new ColourAnalyzer().analyze(boxed);
    const content = await measure('content', await photo('coffee'), 'scale=480:-2');
    // The bars are neither clipped shadows nor the picture's tones: the exposure is the photo's own.
    expect(found.shotQuality).toBeGreaterThan(content.quality * 0.8);
    expect(found.shotQuality).toBeLessThanOrEqual(1);
  });
});
