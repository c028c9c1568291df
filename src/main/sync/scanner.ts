import type { Dirent, Stats } from 'node:fs';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';

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
  /** File-system calls between two yields to the event loop: bounds how long the walk holds the main process. */
  sliceSize?: number;
  signal?: AbortSignal;
  onError?: (path: string, err: unknown) => void;
}

export interface ScanSummary {
  files: number;
  directories: number;
  errors: number;
}

/**
 * Walks a tree depth-first. Directory reads and stat() calls are synchronous (several times cheaper than their
 * promise forms, and they hold no file handle beyond the call, so a 100k-file tree can never hit EMFILE), done in
 * slices with a yield to the event loop between slices so the process stays responsive. Files go out in batches.
 * Symlinks are followed; a directory reached twice (loop or two links to one place) is walked once, keyed by
 * device and inode.
 */
export async function scanTree(root: string, options: ScanOptions): Promise<ScanSummary> {
  const batchSize = options.batchSize ?? 500;
  const sliceSize = options.sliceSize ?? 400;
  const summary: ScanSummary = { files: 0, directories: 0, errors: 0 };
  const visited = new Set<string>();
  const pending: string[] = [root];
  let batch: ScanEntry[] = [];
  let budget = sliceSize;
  const fail = (path: string, err: unknown): void => {
    summary.errors++;
    options.onError?.(path, err);
  };
  // Counts one file-system call; true when the slice is used up and the walk should yield.
  const spent = (): boolean => {
    if (--budget > 0) return false;
    budget = sliceSize;
    return true;
  };
  const pause = async (): Promise<void> => {
    await yieldToLoop();
    options.signal?.throwIfAborted();
  };

  const rootInfo = statSync(root);
  if (rootInfo.isFile()) {
    // A single file watched on its own (added by itself, not with its folder).
    await options.onBatch([{ path: root, size: rootInfo.size, mtimeMs: rootInfo.mtimeMs }]);
    return { files: 1, directories: 0, errors: 0 };
  }
  visited.add(`${rootInfo.dev}:${rootInfo.ino}`);

  while (pending.length > 0) {
    options.signal?.throwIfAborted();
    const dir = pending.pop() as string;
    summary.directories++;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      fail(dir, err);
      continue;
    }
    if (spent()) await pause();
    for (const entry of entries) {
      if (!entry.isDirectory() && !entry.isFile() && !entry.isSymbolicLink()) continue;
      const path = join(dir, entry.name);
      if (options.ignore(path)) continue;
      let info: Stats | undefined;
      try {
        info = statSync(path, { throwIfNoEntry: false });
      } catch (err) {
        fail(path, err);
        continue;
      }
      if (spent()) await pause();
      if (!info) continue; // vanished between readdir and stat, or a dangling link
      if (info.isDirectory()) {
        if (firstVisit(visited, info, path, entry.isSymbolicLink(), fail)) pending.push(path);
      } else if (info.isFile()) {
        summary.files++;
        batch.push({ path, size: info.size, mtimeMs: info.mtimeMs });
        if (batch.length >= batchSize) {
          const full = batch;
          batch = [];
          await options.onBatch(full);
        }
      }
    }
  }
  if (batch.length > 0) await options.onBatch(batch);
  return summary;
}

function firstVisit(
  visited: Set<string>,
  info: Stats,
  path: string,
  link: boolean,
  fail: (path: string, err: unknown) => void,
): boolean {
  const key = `${info.dev}:${info.ino}`;
  if (visited.has(key)) return false;
  visited.add(key);
  if (link) {
    try {
      realpathSync(path);
    } catch (err) {
      fail(path, err);
      return false;
    }
  }
  return true;
}
