import type { SyncStatus } from '../../shared/contract/sync';
import type { Db } from '../store/database';
import { JobsStore } from '../jobs/jobs-store';
import { SyncStore } from '../store/sync-store';
import { AppSettings } from '../settings';

/**
 * Queue control straight on the client database, for a process that does not run the engine (the `status`, `pause`,
 * `resume` and `retry` commands): a running engine sees the rows on its next tick.
 */
export function syncStatusOf(db: Db): SyncStatus {
  const store = new SyncStore(db);
  const counts = new JobsStore(db).openCounts();
  const sum = (state: 'queued' | 'active' | 'failed'): number =>
    counts.examine[state] + counts.upload[state] + counts.poll[state];
  const paused = new AppSettings(db).queuePause('sync');
  return {
    paused: paused ? { reason: paused.reason } : null,
    folders: store.watchFolders().length,
    files: store.fileCounts(),
    byStatus: store.statusCounts(),
    jobs: { queued: sum('queued'), active: sum('active'), failed: sum('failed') },
  };
}

/** Every failed job queued again with fresh attempts; failed uploads' contents back to queued. Returns how many. */
export function retryAllFailed(db: Db): number {
  const store = new SyncStore(db);
  const rows = new JobsStore(db).retryFailed();
  for (const r of rows) if (r.kind === 'upload') store.setContentState(r.target, 'queued', null);
  return rows.length;
}
