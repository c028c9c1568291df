import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { blankKeyframes } from './blank-frame';
import { runTool } from './process';
import { lavfi } from '../../../test/fixtures/generated-clips';

let dir = '';
let cleanup: () => Promise<void> = async () => {};
const size = { width: 320, height: 180 };

/** `count` JPEG stills of a lavfi source (its size and rate set here, then `filters`), named `${name}-NN.jpg`. */
async function stills(name: string, source: string, count: number, filters = ''): Promise<void> {
  await runTool('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', ...lavfi(`${source}:size=320x180:rate=1${filters}`)],
    ...['-frames:v', String(count), '-q:v', '2', join(dir, `${name}-%02d.jpg`)],
  ]);
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-blank-frame-'));
  await stills('black', 'color=c=black', 20);
  await stills('gray', 'color=c=0x404040', 5);
  // Small files that show something: a title on black, a dim pattern.
  await stills('title', 'color=c=black', 10, ",drawtext=text='THE END':fontsize=28:fontcolor=white:x=110:y=80");
  await stills('pattern', 'testsrc=duration=3', 3);
});

afterAll(() => cleanup());

describe('blankKeyframes', () => {
  it('finds the blank stills among many, in runs of several per ffmpeg call, and keeps every one that shows something', async () => {
    const paths = (await readdir(dir)).sort().map((name) => join(dir, name));
    expect(paths).toHaveLength(38);
    const blank = await blankKeyframes(paths, size);
    expect([...blank].sort()).toEqual(paths.filter((p) => /\/(black|gray)-/.test(p)));
  });

  it('finds nothing blank among no keyframes', async () => {
    expect((await blankKeyframes([], size)).size).toBe(0);
  });
});
