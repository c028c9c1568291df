import { stat } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import type { AddPathOptions, AddPathResult, PathKind } from '../../shared/contract/desktop';
import type { WatchFolderView } from '../../shared/contract/sync';
import { describeError } from '../../shared/errors';
import { extensionProblem } from './validator';

export interface Watcher {
  folders(): WatchFolderView[];
  addFolder(input: AddPathOptions & { path: string }): Promise<WatchFolderView>;
  /** Watches and scans the given watch folders (behind the caller: the rows show up as they are recorded). */
  scanSoon(ids: number[]): void;
}

function inside(path: string, folder: string): boolean {
  const root = folder.endsWith(sep) ? folder : folder + sep;
  return path === folder || path.startsWith(root);
}

/** Relative paths are refused, not resolved: neither the web page nor the desktop window has a current folder the user knows. */
export const RELATIVE_PATH_DETAIL =
  'not a full path: Reelsync has no current folder to resolve it against. Give the full path, starting with / (or a drive letter such as D:\\ on Windows)';

const DEFAULT_OPTIONS: Required<Pick<AddPathOptions, 'tags' | 'ignore' | 'polling'>> = {
  tags: [],
  ignore: [],
  polling: 'auto',
};

/**
 * Paths dropped on the window, picked or typed in "Add footage": folders become watch folders (and are scanned), a
 * video file outside every watched folder is watched on its own (its folder is not widened to), paths inside a
 * watched folder are rescanned, anything else is refused with the reason. `options` apply to what is newly watched.
 */
export async function addPaths(
  paths: string[],
  watcher: Watcher,
  options: AddPathOptions = {},
): Promise<AddPathResult[]> {
  const results: AddPathResult[] = [];
  const rescan = new Set<number>();
  const watch = async (path: string, kind: PathKind, detail: string): Promise<void> => {
    try {
      const folder = await watcher.addFolder({ ...DEFAULT_OPTIONS, ...options, path });
      rescan.add(folder.id);
      results.push({ path, kind, outcome: 'watching', detail, watchId: folder.id });
    } catch (err) {
      results.push({ path, kind, outcome: 'rejected', detail: describeError(err), watchId: null });
    }
  };
  for (const raw of paths) {
    if (!isAbsolute(raw)) {
      results.push({ path: raw, kind: null, outcome: 'rejected', detail: RELATIVE_PATH_DETAIL, watchId: null });
      continue;
    }
    const path = resolve(raw);
    const info = await stat(path).catch((err: unknown) => describeError(err));
    if (typeof info === 'string') {
      results.push({ path, kind: null, outcome: 'rejected', detail: `cannot read it: ${info}`, watchId: null });
      continue;
    }
    const covering = watcher.folders().find((f) => f.stoppedAt === null && inside(path, f.path));
    if (info.isDirectory()) {
      if (covering) {
        rescan.add(covering.id);
        results.push({
          path,
          kind: 'folder',
          outcome: 'already-watched',
          detail: `already inside the watched folder ${covering.path}; rescanned`,
          watchId: covering.id,
        });
        continue;
      }
      await watch(path, 'folder', 'watched: its videos are queued as they are found');
      continue;
    }
    if (!info.isFile()) {
      results.push({ path, kind: null, outcome: 'rejected', detail: 'neither a file nor a folder', watchId: null });
      continue;
    }
    const problem = extensionProblem(path);
    if (problem) {
      results.push({ path, kind: 'file', outcome: 'rejected', detail: problem, watchId: null });
      continue;
    }
    if (covering) {
      rescan.add(covering.id);
      results.push({
        path,
        kind: 'file',
        outcome: 'already-watched',
        detail: `in the watched folder ${covering.path}: queued by its rescan`,
        watchId: covering.id,
      });
      continue;
    }
    await watch(path, 'file', 'watched on its own (not its folder): queued now');
  }
  if (rescan.size > 0) watcher.scanSoon([...rescan]);
  return results;
}
