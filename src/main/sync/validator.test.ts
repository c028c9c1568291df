import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPattern, X264 } from '../../../test/fixtures/media';
import { tempDir } from '../../../test/helpers/temp';
import { validateVideo } from './validator';

let dir: string;
let cleanup: () => Promise<void>;
let whole: Buffer;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-validate-'));
  const file = join(dir, 'whole.mp4');
  await testPattern(file, { size: '640x360', rate: 30, seconds: 3, encode: [...X264, '-movflags', '+faststart'] });
  whole = await readFile(file);
});
afterAll(async () => cleanup());

/** The faststart mp4's first `fraction` of bytes, as `head -c` would leave it. */
async function cut(fraction: number): Promise<string> {
  const file = join(dir, `cut-${fraction}.mp4`);
  await writeFile(file, whole.subarray(0, Math.floor(whole.length * fraction)));
  return file;
}

describe('validateVideo on an mp4 whose index comes first (+faststart)', () => {
  it('accepts the whole file', async () => {
    expect(await validateVideo(join(dir, 'whole.mp4'))).toMatchObject({ ok: true, codec: 'h264', size: whole.length });
  });

  it('refuses it cut in half: the streams declare more bytes than the file holds', async () => {
    const result = await validateVideo(await cut(0.5));
    expect(result).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^partial file: the streams declare/) as unknown,
    });
  });

  it('refuses it cut by 1%, within the size slack: its last second does not decode', async () => {
    const result = await validateVideo(await cut(0.99));
    expect(result).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^the last second does not decode: .*(partial file|Invalid)/) as unknown,
    });
  });
});
