import { createHash, randomBytes } from 'node:crypto';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp';
import { followStagedFile } from './staged-file-hash';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('followStagedFile', () => {
  it('hashes a file in its thread as it is written, a step behind the writes', async () => {
    const { dir, cleanup } = await tempDir('staged-hash-');
    const path = join(dir, 'upload.mov');
    const body = randomBytes(40 * 1024 * 1024 + 777); // past the step at which the thread is told to hash on
    const hash = followStagedFile(path);
    await writeFile(path, '');
    for (let at = 0; at < body.length; at += 3_000_000) {
      const end = Math.min(body.length, at + 3_000_000);
      await appendFile(path, body.subarray(at, end));
      hash.written(end);
    }
    expect(await hash.digest(body.length)).toBe(sha256(body));
    await cleanup();
  });

  it('hashes only the bytes the upload says it wrote, and two uploads side by side apart', async () => {
    const { dir, cleanup } = await tempDir('staged-hash-');
    const [a, b] = [randomBytes(300_000), randomBytes(200_000)];
    await writeFile(join(dir, 'a.mp4'), Buffer.concat([a, Buffer.from('not part of the upload')]));
    await writeFile(join(dir, 'b.mp4'), b);
    const first = followStagedFile(join(dir, 'a.mp4'));
    const second = followStagedFile(join(dir, 'b.mp4'));
    first.written(100_000);
    second.written(200_000);
    const digests = await Promise.all([first.digest(a.length), second.digest(b.length)]);
    expect(digests).toEqual([sha256(a), sha256(b)]);
    await cleanup();
  });

  it('fails in plain words when the staged file is shorter than the upload says or is gone', async () => {
    const { dir, cleanup } = await tempDir('staged-hash-');
    await writeFile(join(dir, 'short.mp4'), randomBytes(1000));
    await expect(followStagedFile(join(dir, 'short.mp4')).digest(5000)).rejects.toThrow(
      'the staged upload ends at 1000 bytes, before the 5000 written',
    );
    await expect(followStagedFile(join(dir, 'gone.mp4')).digest(10)).rejects.toThrow(/ENOENT/);
    // A dropped job leaves the thread able to serve the next.
    const dropped = followStagedFile(join(dir, 'short.mp4'));
    dropped.written(500);
    dropped.drop();
    expect(await followStagedFile(join(dir, 'short.mp4')).digest(0)).toBe(sha256(Buffer.alloc(0)));
    await cleanup();
  });
});
