import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoPath } from '../../../../test/fixtures/media';
import { INKED_POSTER, stillFrame } from '../../../../test/helpers/still-frame';
import { tempDir } from '../../../../test/helpers/temp';
import { judgeDrawn } from '../analyzers/drawn-frame';
import { loadNsfwClassifier } from '../analyzers/nsfw-model';
import { loadDrawnJudge } from './nsfw-thread';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-nsfw-thread-'));
});

afterAll(async () => {
  await cleanup();
});

describe('the nsfwjs thread', () => {
  it('judges frames exactly as the classifier in this thread does, and leaves the caller its pixels', async () => {
    const [thread, here] = await Promise.all([loadDrawnJudge(), loadNsfwClassifier()]);
    expect(thread.version).toBe(here.version);
    // A photograph rendered as an inked poster: drawn, by both signals.
    const drawing = await stillFrame(dir, 'drawing', [
      '-i',
      await photoPath('motorcycle'),
      '-vf',
      `scale=640:-2,${INKED_POSTER}`,
    ]);
    // In bars: the judge reads the picture inside them.
    const photo = await stillFrame(dir, 'photo', [
      '-i',
      await photoPath('coffee'),
      '-vf',
      'scale=-2:300,pad=640:360:(ow-iw)/2:(oh-ih)/2',
    ]);
    const judged = [];
    for (const frame of [drawing, photo]) {
      const rgb = await frame.rgb();
      const copy = rgb.slice();
      const [a, b] = await Promise.all([
        thread.judge(rgb, frame.width, frame.height),
        judgeDrawn(here, rgb, frame.width, frame.height),
      ]);
      expect(a).toEqual(b);
      expect(rgb).toEqual(copy);
      judged.push(a.length);
    }
    expect(judged).toEqual([5, 0]);
  });

  it('fails a frame whose bytes do not match its size, and goes on with the next', async () => {
    const thread = await loadDrawnJudge();
    await expect(thread.judge(new Uint8Array(10), 160, 120)).rejects.toThrow(/not a 160x120 RGB picture/);
    await expect(thread.judge(new Uint8Array(160 * 120 * 3), 160, 120)).resolves.toEqual([]);
  });
});
