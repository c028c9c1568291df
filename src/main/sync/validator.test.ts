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

describe('validateVideo on a file that is no video at all', () => {
  it('says a text file named .mp4 is not a video, and an MP4 missing its end is a video cut short', async () => {
    const note = join(dir, 'note.mp4');
    await writeFile(note, 'Shot list, day 2\nA001 harbour wide\n');
    const text = await validateVideo(note);
    expect(text).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^not a video file \(its content is text\): /) as unknown,
    });
    const data = join(dir, 'data.mp4');
    await writeFile(data, Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0x80, 0x00, 0x10]));
    expect(await validateVideo(data)).toMatchObject({
      reason: expect.stringMatching(/^not a video file \(its content is no video container\)/) as unknown,
    });
    // The same ffprobe failure on an MP4 whose index never came (its ftyp, then media data cut off): cut short.
    const head = join(dir, 'head-only.mp4');
    const mdat = Buffer.alloc(4096);
    mdat.writeUInt32BE(1_000_000, 0);
    mdat.write('mdat', 4, 'latin1');
    await writeFile(head, Buffer.concat([whole.subarray(0, whole.readUInt32BE(0)), mdat]));
    expect(await validateVideo(head)).toMatchObject({
      reason: expect.stringMatching(/^not a readable video \(truncated or corrupt\?\)/) as unknown,
    });
  });
});
