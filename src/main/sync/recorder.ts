import type { JobsStore } from '../jobs/jobs-store';
import type { SyncStore } from '../store/sync-store';
import type { WatchFolderRow } from '../store/sync-rows';
import type { ScanEntry } from './scanner';
import { extensionProblem } from './validator';

export interface RecordCounts {
  new: number;
  changed: number;
  unchanged: number;
}

/**
 * What the scanner and the watcher call: it only writes rows (a file row, and an examine job when the file is new or
 * changed). Unchanged files (same size and mtime as last seen) cost one indexed lookup and no job.
 */
export class FileRecorder {
  constructor(
    private readonly store: SyncStore,
    private readonly jobs: JobsStore,
    private readonly onRecorded: (fileId: number) => void,
  ) {}

  record(watch: WatchFolderRow, entries: readonly ScanEntry[], scan = 0): RecordCounts {
    const counts: RecordCounts = { new: 0, changed: 0, unchanged: 0 };
    const touched: number[] = [];
    this.store.transaction(() => {
      const now = Date.now();
      for (const e of entries) {
        const { outcome, id } = this.store.recordFile(watch.id, e.path, e.size, e.mtimeMs, scan, now);
        counts[outcome]++;
        if (outcome === 'unchanged') continue;
        touched.push(id);
        const byName = extensionProblem(e.path);
        if (byName) this.store.setFileState(id, 'skipped', byName);
        else this.jobs.enqueue('examine', String(id), now, now);
      }
    });
    for (const id of touched) this.onRecorded(id);
    return counts;
  }
}
