import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { openDatabase, type Db } from '../src/main/store/database';
import { SyncStore } from '../src/main/store/sync-store';
import { syncStatusOf } from '../src/main/sync/control';
import { fileView } from '../src/main/sync/views';
import { BENCH_DIR } from './bench-files';
import { compare, timeBest, type Benchmark } from './harness';

const FILES = Number(process.env.STATUS_FILES ?? 100_000);
const CONTENT_STATES = ['queued', 'uploading', 'indexing', 'indexed', 'index_failed', 'failed', 'cancelled'];

/** A library of FILES files in every status, with the examine/upload/poll jobs a finished sync leaves behind. */
function seed(db: Db): void {
  const now = Date.now();
  db.prepare('INSERT INTO watch_folders (path, created_at) VALUES (?, ?)').run('/footage', now);
  const content = db.prepare('INSERT INTO contents (hash, size, state, created_at, updated_at) VALUES (?, 1, ?, ?, ?)');
  const file = db.prepare(
    `INSERT INTO files (watch_id, path, size, mtime_ms, observed_at, hash, state, updated_at)
     VALUES (1, ?, 1, 0, 0, ?, ?, 0)`,
  );
  const job = db.prepare("INSERT INTO jobs (kind, target, state, created_at, updated_at) VALUES (?, ?, 'done', ?, ?)");
  db.transaction(() => {
    for (let i = 0; i < FILES; i++) {
      const hash = `h${i}`;
      const state = i % 20 === 0 ? 'pending' : i % 20 === 1 ? 'skipped' : i % 50 === 2 ? 'deleted' : 'linked';
      // Mostly indexed, as in a library that has been syncing for a while.
      content.run(hash, i % 10 < 7 ? 'indexed' : (CONTENT_STATES[i % 7] ?? 'queued'), now, now);
      file.run(`/footage/day-${Math.floor(i / 500)}/clip-${i}.mov`, state === 'pending' ? null : hash, state);
      for (const kind of ['examine', 'upload', 'poll']) job.run(kind, `${kind}-${i}`, now, now);
    }
  })();
}

/** What `sync:status` did before: every file row paged in and mapped through the file list's view. */
function walkEveryFile(db: Db): Record<string, number> {
  const store = new SyncStore(db);
  const byStatus: Record<string, number> = {};
  for (let page = 1; ; page++) {
    const { rows } = store.filesPage(page, 1000);
    for (const f of rows) {
      const s = fileView(f, f.hash && f.state === 'linked' ? store.content(f.hash) : undefined).status;
      byStatus[s] = (byStatus[s] ?? 0) + 1;
    }
    if (rows.length < 1000) break;
  }
  return byStatus;
}

const sorted = (r: Record<string, number>): string => JSON.stringify(Object.entries(r).sort());

const bench: Benchmark = {
  name: 'status',
  description: `sync:status at ${FILES.toLocaleString('en')} files (counts the database keeps) vs walking every file`,
  async run() {
    await mkdir(BENCH_DIR, { recursive: true });
    const path = join(BENCH_DIR, 'status-client.db');
    await rm(path, { force: true });
    const db = openDatabase(path);
    seed(db);
    const status = syncStatusOf(db);
    const walked = walkEveryFile(db);
    if (sorted(status.byStatus) !== sorted(walked)) {
      throw new Error(`counts differ: ${sorted(status.byStatus)} vs ${sorted(walked)}`);
    }
    const ours = await timeBest(20, async () => syncStatusOf(db));
    const walk = await timeBest(1, async () => walkEveryFile(db)); // the check above warmed it
    db.close();
    return [
      compare(
        `sync:status, ${FILES.toLocaleString('en')} files, ${(3 * FILES).toLocaleString('en')} finished jobs`,
        { label: 'syncStatusOf (kept counts)', seconds: ours },
        { label: 'walk every file (before)', seconds: walk },
        `< 20 ms (ours: ${(ours * 1000).toFixed(2)} ms)`,
      ),
    ];
  },
};

export default bench;
