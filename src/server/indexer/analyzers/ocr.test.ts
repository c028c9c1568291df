import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp';
import { analyzeVideo } from '../analyze-video';
import { mergeReads, OcrAnalyzer, picturesDiffer } from './ocr';
import { ensureClip } from '../../../../test/fixtures/generated-clips';
import { LATE_TITLE } from '../../../../test/fixtures/test-clips';

describe('mergeReads', () => {
  it('keeps one copy of what both frames read', () => {
    expect(
      mergeReads([
        ['HARBOUR', 'LIGHTS'],
        ['HARBOUR', 'LIGHTS'],
      ]),
    ).toBe('HARBOUR LIGHTS');
    expect(mergeReads([['MARKET|'], ['market']])).toBe('MARKET|');
    expect(mergeReads([[], []])).toBe('');
  });

  it('starts from the fuller read, so a title read whole stays one phrase', () => {
    expect(
      mergeReads([
        ['THE', 'BAY'],
        ['SUNSET', 'OVER', 'THE', 'BAY'],
      ]),
    ).toBe('SUNSET OVER THE BAY');
    expect(mergeReads([['INTERVIEW', 'ANNA'], ['INTERVIEW']])).toBe('INTERVIEW ANNA');
  });

  it('adds the words only the other frame read, after the first read, each once', () => {
    expect(
      mergeReads([
        ['CHAPTER', 'TWO', 'ROOM'],
        ['ROOM', 'FIVE'],
      ]),
    ).toBe('CHAPTER TWO ROOM FIVE');
    // Repeats inside one read are the text's own and stay.
    expect(mergeReads([['THE', 'END', 'OF', 'THE', 'ROAD'], []])).toBe('THE END OF THE ROAD');
  });
});

describe('picturesDiffer', () => {
  const width = 64;
  const height = 48;
  const base = (): Uint8Array => Uint8Array.from({ length: width * height * 3 }, (_, i) => 10 + ((i * 37) % 200));

  it('sees a still picture with compression noise as the same picture', () => {
    const a = base();
    const b = a.map((v, i) => v + ((i * 7) % 13) - 6);
    expect(picturesDiffer(a, a, width, height)).toBe(false);
    expect(picturesDiffer(a, b, width, height)).toBe(false);
  });

  it('sees a change confined to one block, like a title fading in', () => {
    const a = base();
    const b = a.slice();
    for (let y = 20; y < 36; y++)
      for (let x = 30; x < 46; x++) for (let c = 0; c < 3; c++) b[(y * width + x) * 3 + c] = 255;
    expect(picturesDiffer(a, b, width, height)).toBe(true);
  });

  it('calls frames of different sizes different', () => {
    expect(picturesDiffer(base(), new Uint8Array(10), width, height)).toBe(true);
  });
});

describe('OcrAnalyzer on a real video', () => {
  const ocr = new OcrAnalyzer();
  let dir = '';
  let cleanup: () => Promise<void> = async () => {};

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-ocr-'));
    expect(await ocr.available()).toEqual({ ok: true });
  });

  afterAll(async () => {
    await ocr.close();
    await cleanup();
  });

  it('reads a title that appears after the keyframe, from the middle of the segment', async () => {
    const clip = await ensureClip(LATE_TITLE);
    const workDir = join(dir, 'work');
    await mkdir(workDir);
    const result = await analyzeVideo({ videoPath: clip, workDir, analyzers: [ocr] });
    expect(result.failures).toEqual([]);
    expect(result.segments).toHaveLength(1);
    expect(result.segments[0]?.ocrText).toBe('EVENING FERRY');
  });
});
