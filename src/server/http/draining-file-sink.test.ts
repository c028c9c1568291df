import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { DrainingFileSink, FILE_WRITE_BYTES } from './draining-file-sink';

function write(sink: DrainingFileSink, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => sink.write(chunk, (err) => (err ? reject(err) : resolve())));
}

function end(sink: DrainingFileSink): Promise<void> {
  return new Promise((resolve, reject) => {
    sink.once('error', reject);
    sink.end((err?: Error | null) => (err ? reject(err) : resolve()));
  });
}

describe('DrainingFileSink', () => {
  it('gathers chunks into writes of FILE_WRITE_BYTES and stores every byte in order', async () => {
    const { dir, cleanup } = await tempDir('sink-');
    const path = join(dir, 'upload.bin');
    const body = randomBytes(3 * FILE_WRITE_BYTES + 12_345);
    const heard: number[] = [];
    const sink = new DrainingFileSink(path, 0, (written) => heard.push(written));
    // Uneven chunks, one of a single byte and one larger than a whole write.
    const cuts = [0, 1, 70_000, FILE_WRITE_BYTES / 2, FILE_WRITE_BYTES + 3, 2 * FILE_WRITE_BYTES + 99, body.length];
    await write(sink, body.subarray(cuts[0], cuts[1]));
    await write(sink, body.subarray(cuts[1], cuts[2]));
    await write(sink, body.subarray(cuts[2], cuts[3]));
    expect((await stat(path)).size).toBe(0); // under a write's worth: still held
    for (let i = 3; i < cuts.length - 1; i++) await write(sink, body.subarray(cuts[i], cuts[i + 1]));
    expect((await stat(path)).size).toBeGreaterThanOrEqual(2 * FILE_WRITE_BYTES);
    await end(sink);
    expect((await readFile(path)).equals(body)).toBe(true);
    // Told after each write, with the bytes on disk so far: what a follower of the file may read.
    expect(heard.length).toBeGreaterThanOrEqual(3);
    expect(heard).toEqual([...heard].sort((a, b) => a - b));
    expect(heard.at(-1)).toBe(body.length);
    expect(sink.written).toBe(body.length);
    await cleanup();
  });

  it('keeps taking a refused body up to the cap and fails with the disk error at its end', async () => {
    // /dev/full refuses every write with ENOSPC, as a full disk does.
    const sink = new DrainingFileSink('/dev/full', 4 * FILE_WRITE_BYTES);
    for (let i = 0; i < 3; i++) await write(sink, Buffer.alloc(FILE_WRITE_BYTES, i));
    await expect(end(sink)).rejects.toMatchObject({ code: 'ENOSPC' });
  });

  it('fails at once when the refused body passes the cap', async () => {
    const sink = new DrainingFileSink('/dev/full', FILE_WRITE_BYTES);
    sink.on('error', () => {});
    await write(sink, Buffer.alloc(FILE_WRITE_BYTES, 1)); // refused, dropped
    await write(sink, Buffer.alloc(FILE_WRITE_BYTES, 2)); // held: a write's worth not yet reached
    await expect(write(sink, Buffer.alloc(FILE_WRITE_BYTES, 3))).rejects.toMatchObject({ code: 'ENOSPC' });
  });
});
