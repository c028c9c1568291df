import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressBlocks, openRandomAccess } from './block-compressed';

describe('block-compressed files', () => {
  let dir: string;
  // Text-like (compressible) with random runs, 5.5 blocks of 1 KiB: reads cross block edges and hit the short last one.
  const data = Buffer.concat(
    Array.from({ length: 44 }, (_, i) => Buffer.concat([Buffer.from(`line ${i} `.repeat(10)), randomBytes(30)])),
  ).subarray(0, 5632);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelsync-blocks-'));
    await writeFile(join(dir, 'plain'), data);
    await writeFile(join(dir, 'packed'), compressBlocks(data, 1024));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads the same bytes as the plain file, at any offset and length, and whole', () => {
    const plain = openRandomAccess(join(dir, 'plain'));
    const packed = openRandomAccess(join(dir, 'packed'));
    try {
      for (const [offset, length] of [
        [0, 10],
        [1000, 100],
        [1023, 2],
        [0, 1024],
        [500, 3000],
        [5600, 100],
        [5632, 10],
        [9000, 10],
      ] as const) {
        const want = data.subarray(offset, offset + length);
        expect(packed.read(offset, length).equals(want), `${offset}+${length}`).toBe(true);
        expect(plain.read(offset, length).equals(want), `${offset}+${length}`).toBe(true);
      }
      expect(packed.readAll().equals(data)).toBe(true);
      expect(plain.readAll().equals(data)).toBe(true);
    } finally {
      plain.close();
      packed.close();
    }
  });

  it('is smaller than the text it holds', () => {
    const text = Buffer.from('04 n 02 dog 0 domestic_dog 0 003 @ 02083346 n 0000\n'.repeat(4000));
    expect(compressBlocks(text, 16 * 1024).length).toBeLessThan(text.length / 10);
  });

  it('names the file and the fault when the file is cut short or damaged', async () => {
    const packed = compressBlocks(data, 1024);
    await writeFile(join(dir, 'cut'), packed.subarray(0, 30));
    expect(() => openRandomAccess(join(dir, 'cut'))).toThrow(/cut cannot be read: it ends at 30/);
    const damaged = Buffer.from(packed);
    damaged.fill(0xff, damaged.length - 200);
    await writeFile(join(dir, 'damaged'), damaged);
    const file = openRandomAccess(join(dir, 'damaged'));
    try {
      expect(file.read(0, 10).equals(data.subarray(0, 10))).toBe(true);
      expect(() => file.readAll()).toThrow();
    } finally {
      file.close();
    }
  });
});
