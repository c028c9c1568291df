import { createWriteStream, existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomFillSync } from 'node:crypto';

export const BENCH_DIR = join(import.meta.dirname, '..', '.cache', 'bench');

/** A file of pseudo-random bytes of the given size, made once and reused. */
export async function randomFile(name: string, size: number): Promise<string> {
  await mkdir(BENCH_DIR, { recursive: true });
  const file = join(BENCH_DIR, name);
  if (existsSync(file) && statSync(file).size === size) return file;
  const out = createWriteStream(file);
  const block = Buffer.alloc(8 * 1024 * 1024);
  for (let written = 0; written < size; written += block.length) {
    randomFillSync(block);
    const slice = block.subarray(0, Math.min(block.length, size - written));
    if (!out.write(slice)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return file;
}
