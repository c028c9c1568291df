import type { Dir, Stats } from 'node:fs';
import { opendir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface ScanEntry {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface ScanOptions {
  ignore: (path: string) => boolean;
  /** Receives files in batches; awaited, so a slow consumer slows the walk (memory stays flat). */
  onBatch: (batch: ScanEntry[]) => Promise<void> | void;
  batchSize?: number;
  /** Parallel stat() calls; bounded so a 100k-file tree never exhausts file handles. */
  concurrency?: number;
  signal?: AbortSignal;
  onError?: (path: string, err: unknown) => void;
}

export interface ScanSummary {
  files: number;
  directories: number;
  errors: number;
}

/**
 * Walks a tree depth-first with one directory handle open at a time per level of the pending stack, a bounded pool of
 * stat() calls, and files handed over in batches. Symlinks are followed; a directory reached twice (loop or two links
 * to one place) is walked once, keyed by device and inode.
 */
export async function scanTree(root: string, options: ScanOptions): Promise<ScanSummary> {
  const batchSize = options.batchSize ?? 500;
  const concurrency = options.concurrency ?? 32;
  const summary: ScanSummary = { files: 0, directories: 0, errors: 0 };
  const visited = new Set<string>();
  const pending: string[] = [root];
  let batch: ScanEntry[] = [];
  const fail = (path: string, err: unknown): void => {
    summary.errors++;
    options.onError?.(path, err);
  };

  const rootInfo = await stat(root);
  visited.add(`${rootInfo.dev}:${rootInfo.ino}`);

  while (pending.length > 0) {
    options.signal?.throwIfAborted();
    const dir = pending.pop() as string;
    summary.directories++;
    let handle: Dir;
    try {
      handle = await opendir(dir, { bufferSize: 256 });
    } catch (err) {
      fail(dir, err);
      continue;
    }
    const toStat: { path: string; link: boolean }[] = [];
    for await (const entry of handle) {
      const path = join(dir, entry.name);
      if (options.ignore(path)) continue;
      if (entry.isDirectory()) {
        // A directory reached by its real name: check the loop guard when it is stat()ed below only if it is a link.
        toStat.push({ path, link: false });
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        toStat.push({ path, link: entry.isSymbolicLink() });
      }
    }
    // Stat in bounded parallel slices.
    for (let i = 0; i < toStat.length; i += concurrency) {
      const slice = toStat.slice(i, i + concurrency);
      const results = await Promise.all(
        slice.map(async (e) => {
          try {
            return { e, info: await stat(e.path) };
          } catch (err) {
            fail(e.path, err);
            return null;
          }
        }),
      );
      for (const r of results) {
        if (!r) continue;
        const { e, info } = r;
        if (info.isDirectory()) {
          if (await firstVisit(visited, info, e, fail)) pending.push(e.path);
        } else if (info.isFile()) {
          summary.files++;
          batch.push({ path: e.path, size: info.size, mtimeMs: info.mtimeMs });
          if (batch.length >= batchSize) {
            const full = batch;
            batch = [];
            await options.onBatch(full);
          }
        }
      }
    }
  }
  if (batch.length > 0) await options.onBatch(batch);
  return summary;
}

async function firstVisit(visited: Set<string>, info: Stats, e: { path: string; link: boolean }, fail: (path: string, err: unknown) => void): Promise<boolean> {
  const key = `${info.dev}:${info.ino}`;
  if (visited.has(key)) return false;
  visited.add(key);
  if (e.link) {
    try {
      await realpath(e.path);
    } catch (err) {
      fail(e.path, err);
      return false;
    }
  }
  return true;
}
