import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  drawnWords,
  FRAME,
  NO_TEXT_FRAMES,
  sceneTextFrame,
  TEXT_FRAMES,
} from '../../../../../test/fixtures/scene-text-frames';
import { keptWords } from './kept-words';
import { PaddleReader } from './paddle-reader';

const frame = (name: string) => {
  const found = [...TEXT_FRAMES, ...NO_TEXT_FRAMES].find((f) => f.name === name);
  if (!found) throw new Error(`no frame ${name}`);
  return found;
};

/** Real PP-OCRv4 on frames drawn by ffmpeg over real photographs (test/fixtures/scene-text-frames.ts). */
describe('PaddleReader on real frames', () => {
  const reader = new PaddleReader();

  beforeAll(async () => {
    await reader.start();
  });

  afterAll(async () => {
    await reader.close();
  });

  const read = async (name: string): Promise<string[]> => {
    const { rgb } = await sceneTextFrame(frame(name));
    return keptWords(await reader.read({ data: rgb, ...FRAME }));
  };

  it('reads a slate exactly, the take number included', async () => {
    const words = await read('slate on a street');
    expect(words.join(' ')).toBe('SCENE 12 TAKE 3 ROLL A017');
  });

  it('reads a lower third, case and all', async () => {
    const f = frame('lower third over a face');
    expect(await read(f.name)).toEqual(drawnWords(f));
  });

  it('reads a sign filmed at an angle', async () => {
    expect(await read('tilted ferry sign')).toEqual(['FERRY', 'TERMINAL']);
  });

  it('reads no words at all on photographs without text', async () => {
    expect(await read('baboon.jpg')).toEqual([]);
    expect(await read('Dune.jpg')).toEqual([]);
  });
});
