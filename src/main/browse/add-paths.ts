import { stat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { AddPathResult } from '../../shared/contract/desktop';
import type { WatchFolderView } from '../../shared/contract/sync';
import { describeError } from '../../shared/errors';
import { extensionProblem } from '../sync/validator';

export interface Watcher {
  folders(): WatchFolderView[];
  addFolder(input: { path: string; tags: string[]; ignore: string[]; polling: 'auto' }): Promise<WatchFolderView>;
  /** Watches and scans the given watch folders (behind the caller: the rows show up as they are recorded). */
  scanSoon(ids: number[]): void;
}

function inside(path: string, folder: string): boolean {
  const root = folder.endsWith(sep) ? folder : folder + sep;
  return path === folder || path.startsWith(root);
}

/**
 * Paths dropped on the window or typed into the drop zone: folders become watch folders (and are scanned), files
 * inside a watched folder are rescanned, anything else is refused with the reason. The sync engine syncs folders, so a
 * loose file outside every watched folder is refused with the folder to watch instead (never silently widened).
 */
export async function addPaths(paths: string[], watcher: Watcher): Promise<AddPathResult[]> {
  const results: AddPathResult[] = [];
  const rescan = new Set<number>();
  for (const raw of paths) {
    const path = resolve(raw);
    const info = await stat(path).catch((err: unknown) => describeError(err));
    if (typeof info === 'string') {
      results.push({ path, outcome: 'rejected', detail: `cannot read it: ${info}`, watchId: null });
      continue;
    }
    const covering = watcher.folders().find((f) => inside(path, f.path));
    if (info.isDirectory()) {
      if (covering) {
        rescan.add(covering.id);
        results.push({ path, outcome: 'already-watched', detail: `already inside the watched folder ${covering.path}; rescanned`, watchId: covering.id });
        continue;
      }
      try {
        const folder = await watcher.addFolder({ path, tags: [], ignore: [], polling: 'auto' });
        rescan.add(folder.id);
        results.push({ path, outcome: 'watching', detail: 'watched: its videos are queued as they are found', watchId: folder.id });
      } catch (err) {
        results.push({ path, outcome: 'rejected', detail: describeError(err), watchId: null });
      }
      continue;
    }
    if (!info.isFile()) {
      results.push({ path, outcome: 'rejected', detail: 'neither a file nor a folder', watchId: null });
      continue;
    }
    const problem = extensionProblem(path);
    if (problem) {
      results.push({ path, outcome: 'rejected', detail: problem, watchId: null });
      continue;
    }
    if (covering) {
      rescan.add(covering.id);
      results.push({ path, outcome: 'already-watched', detail: `in the watched folder ${covering.path}: queued by its rescan`, watchId: covering.id });
      continue;
    }
    results.push({ path, outcome: 'rejected', detail: `Reelsync syncs folders: watch ${dirname(path)} to sync this file`, watchId: null });
  }
  if (rescan.size > 0) watcher.scanSoon([...rescan]);
  return results;
}
