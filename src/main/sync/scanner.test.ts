import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { makeIgnore } from './ignore';
import { scanTree, type ScanEntry } from './scanner';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

async function collect(
  root: string,
  batchSize = 500,
): Promise<{ files: ScanEntry[]; batches: number[]; errors: string[] }> {
  const files: ScanEntry[] = [];
  const batches: number[] = [];
  const errors: string[] = [];
  await scanTree(root, {
    ignore: makeIgnore(root, ['*.tmp']),
    batchSize,
    sliceSize: 7,
    onBatch: (b) => {
      batches.push(b.length);
      files.push(...b);
    },
    onError: (path) => errors.push(path),
  });
  return { files, batches, errors };
}

describe('scanTree', () => {
  it('lists every file once, in batches, with size and mtime', async () => {
    for (let d = 0; d < 5; d++) {
      await mkdir(join(dir, `d${d}`, 'deeper'), { recursive: true });
      for (let f = 0; f < 247; f++)
        await writeFile(join(dir, `d${d}`, f % 2 ? 'deeper' : '', `f${f}.mp4`), 'x'.repeat(f));
    }
    const { files, batches } = await collect(dir, 500);
    expect(files).toHaveLength(1235);
    expect(new Set(files.map((f) => f.path)).size).toBe(1235);
    expect(batches).toEqual([500, 500, 235]);
    const f10 = files.find((f) => f.path.endsWith(join('d3', 'f10.mp4')));
    expect(f10?.size).toBe(10);
    expect(f10?.mtimeMs).toBeGreaterThan(0);
  });

  it('skips junk, hidden entries and user patterns', async () => {
    for (const p of [
      '.DS_Store',
      'Thumbs.db',
      '@eaDir/x.mp4',
      '.Trashes/y.mp4',
      '.hidden/z.mp4',
      'a.tmp',
      'keep.mov',
    ]) {
      await mkdir(join(dir, p, '..'), { recursive: true });
      await writeFile(join(dir, p), 'x');
    }
    expect((await collect(dir)).files.map((f) => f.path)).toEqual([join(dir, 'keep.mov')]);
  });

  it('follows symlinks without looping, and walks a folder reached twice once', async () => {
    await mkdir(join(dir, 'real', 'sub'), { recursive: true });
    await writeFile(join(dir, 'real', 'sub', 'clip.mp4'), 'x');
    await symlink(join(dir, 'real'), join(dir, 'real', 'sub', 'loop'));
    await symlink(join(dir, 'real'), join(dir, 'alias'));
    await symlink(join(dir, 'real', 'sub', 'clip.mp4'), join(dir, 'linked.mp4'));
    await symlink(join(dir, 'nowhere'), join(dir, 'dangling.mp4'));
    const { files } = await collect(dir);
    const names = files.map((f) => f.path.slice(dir.length + 1)).sort();
    // The real folder is walked once (by whichever name comes first); the file link is a file of its own.
    expect(names.filter((n) => n.endsWith('clip.mp4'))).toHaveLength(1);
    expect(names).toContain('linked.mp4');
    expect(names).not.toContain('dangling.mp4');
  });

  it('stops when aborted', async () => {
    for (let f = 0; f < 50; f++) await writeFile(join(dir, `f${f}.mp4`), 'x');
    const controller = new AbortController();
    controller.abort();
    await expect(scanTree(dir, { ignore: () => false, onBatch: () => {}, signal: controller.signal })).rejects.toThrow(
      /abort/i,
    );
  });
});
