import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { sha256File } from './hasher';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

describe('sha256File', () => {
  it('matches the one-shot digest across chunk boundaries and reports progress', async () => {
    const data = randomBytes(9 * 1024 * 1024 + 123);
    const file = join(dir, 'data.bin');
    await writeFile(file, data);
    const seen: number[] = [];
    const digest = await sha256File(file, { onProgress: (b) => seen.push(b) });
    expect(digest).toBe(createHash('sha256').update(data).digest('hex'));
    expect(seen.at(-1)).toBe(data.length);
    expect(seen.length).toBeGreaterThan(1);
  });

  it('hashes an empty file', async () => {
    const file = join(dir, 'empty');
    await writeFile(file, '');
    expect(await sha256File(file)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('stops when aborted', async () => {
    const file = join(dir, 'big.bin');
    await writeFile(file, randomBytes(16 * 1024 * 1024));
    const controller = new AbortController();
    const pending = sha256File(file, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(pending).rejects.toThrow(/abort/i);
  });
});
