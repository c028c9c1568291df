import type { WebContents } from 'electron';
import { fileURLToPath } from 'node:url';
import type { AddPathResult } from '../../shared/contract/desktop';
import type { Note } from './notifier';

/** "2 folders and 1 file", "1 file": what a set of results held, counted by kind (unreadable paths are "items"). */
function counted(results: AddPathResult[]): string {
  const count = (n: number, one: string): string => (n ? `${n} ${one}${n === 1 ? '' : 's'}` : '');
  const parts = [
    count(results.filter((r) => r.kind === 'folder').length, 'folder'),
    count(results.filter((r) => r.kind === 'file').length, 'file'),
    count(results.filter((r) => r.kind === null).length, 'item'),
  ].filter(Boolean);
  return parts.join(' and ');
}

/** What one drop came to, in one line per outcome, worded by what was added (folders, files). */
export function dropSummary(results: AddPathResult[]): Note {
  const watching = results.filter((r) => r.outcome === 'watching');
  const already = results.filter((r) => r.outcome === 'already-watched');
  const rejected = results.filter((r) => r.outcome === 'rejected');
  const parts = [
    watching.length ? `${counted(watching)} now watched` : '',
    already.length ? `${counted(already)} already watched (rescanned)` : '',
    ...rejected.map((r) => `${r.path}: ${r.detail}`),
  ].filter(Boolean);
  return {
    title: rejected.length && !watching.length && !already.length ? 'Nothing was added' : 'Footage added',
    body: parts.join('\n'),
  };
}

/**
 * Files and folders dropped on the window: the page leaves OS file drops alone, so Chromium tries to open them as a
 * file:// navigation; that navigation is cancelled here and its path validated and queued (sync:add-paths).
 */
export function interceptFileDrops(
  contents: Pick<WebContents, 'on'>,
  add: (paths: string[]) => Promise<AddPathResult[]>,
  tell: (n: Note) => void,
): void {
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith('file://')) return;
    event.preventDefault();
    let path: string;
    try {
      path = fileURLToPath(url);
    } catch {
      return;
    }
    void add([path]).then(
      (results) => tell(dropSummary(results)),
      (err: unknown) =>
        tell({ title: 'Could not add the dropped item', body: err instanceof Error ? err.message : String(err) }),
    );
  });
}
