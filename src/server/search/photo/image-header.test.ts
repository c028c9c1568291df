import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readImageHeader } from './image-header';
import { lavfi } from '../../../../test/fixtures/generated-clips';

const dir = mkdtempSync(join(tmpdir(), 'reelsync-image-header-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real file of each format, written by ffmpeg at an odd size so width and height cannot be swapped unnoticed. */
function encoded(name: string, args: string[] = []): Buffer {
  const file = join(dir, name);
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...lavfi('testsrc=size=321x123'),
    '-frames:v',
    '1',
    ...args,
    file,
  ]);
  return readFileSync(file);
}

describe('readImageHeader', () => {
  it.each([
    ['a.png', 'png', []],
    ['a.jpg', 'jpeg', []],
    ['full-range.jpg', 'jpeg', ['-c:v', 'mjpeg', '-pix_fmt', 'yuvj444p']],
    ['a.gif', 'gif', []],
    ['lossy.webp', 'webp', ['-c:v', 'libwebp']],
    ['lossless.webp', 'webp', ['-c:v', 'libwebp', '-lossless', '1']],
    ['a.bmp', 'bmp', []],
  ] as const)('reads %s without decoding it', (name, format, args) => {
    expect(readImageHeader(encoded(name, [...args]))).toEqual({ format, width: 321, height: 123 });
  });

  it('finds a JPEG frame header behind a large metadata segment', () => {
    const jpeg = encoded('meta.jpg');
    const app1 = Buffer.alloc(4 + 60_000);
    app1.writeUInt16BE(0xffe1, 0);
    app1.writeUInt16BE(60_002, 2);
    expect(readImageHeader(Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]))).toMatchObject({
      width: 321,
      height: 123,
    });
  });

  it('reads the canvas of an extended WebP (VP8X), as animated and alpha files have', () => {
    const vp8x = Buffer.alloc(30);
    vp8x.write('RIFF', 0, 'latin1');
    vp8x.writeUInt32LE(22, 4);
    vp8x.write('WEBPVP8X', 8, 'latin1');
    vp8x.writeUInt32LE(10, 16);
    vp8x.writeUIntLE(20_000 - 1, 24, 3);
    vp8x.writeUIntLE(9_000 - 1, 27, 3);
    expect(readImageHeader(vp8x)).toEqual({ format: 'webp', width: 20_000, height: 9_000 });
  });

  it('reads a PNG that declares a huge canvas from its first bytes alone', () => {
    const ihdr = Buffer.from('89504e470d0a1a0a0000000d49484452000002800000fde8', 'hex');
    expect(readImageHeader(ihdr)).toEqual({ format: 'png', width: 640, height: 65000 });
  });

  it('knows nothing of other bytes, cut headers or empty canvases', () => {
    expect(readImageHeader(Buffer.from('#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n'))).toBeUndefined();
    expect(readImageHeader(encoded('cut.png').subarray(0, 20))).toBeUndefined();
    expect(readImageHeader(Buffer.from('GIF89a\x00\x00\x10\x00', 'latin1'))).toBeUndefined();
    expect(readImageHeader(Buffer.alloc(0))).toBeUndefined();
  });
});
