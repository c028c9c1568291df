import { describe, expect, it } from 'vitest';
import { loadNsfwClassifier } from '../analyzers/nsfw-model';
import { loadNsfwThreadClassifier } from './nsfw-thread';

/** A 160 x 120 picture of smooth gradients and a hard-edged block: something for the classifier to score. */
function picture(): Uint8Array {
  const width = 160;
  const height = 120;
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const block = x > 40 && x < 100 && y > 30 && y < 80;
      rgb[i] = block ? 230 : (x * 255) / width;
      rgb[i + 1] = block ? 40 : (y * 255) / height;
      rgb[i + 2] = block ? 60 : 128;
    }
  }
  return rgb;
}

describe('the nsfwjs thread', () => {
  it('scores a frame exactly as the classifier in this thread does, and leaves the caller its pixels', async () => {
    const [inThread, here] = await Promise.all([loadNsfwThreadClassifier(), loadNsfwClassifier()]);
    expect(inThread.version).toBe(here.version);
    const rgb = picture();
    const copy = rgb.slice();
    const [a, b] = await Promise.all([inThread.classify(rgb, 160, 120), here.classify(rgb, 160, 120)]);
    expect(a).toEqual(b);
    expect(a.Drawing + a.Neutral + a.Hentai + a.Porn + a.Sexy).toBeGreaterThan(0.9);
    expect(rgb).toEqual(copy);
  });

  it('fails a frame whose bytes do not match its size, and goes on with the next', async () => {
    const classifier = await loadNsfwThreadClassifier();
    await expect(classifier.classify(new Uint8Array(10), 160, 120)).rejects.toThrow(/not a 160x120 RGB picture/);
    await expect(classifier.classify(picture(), 160, 120)).resolves.toHaveProperty('Drawing');
  });
});
