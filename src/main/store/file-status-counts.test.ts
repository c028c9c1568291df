import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { fileStatus } from '../sync/views';
import { openDatabase, type Db } from './database';
import { clientMigrations } from './migrations';
import { SyncStore } from './sync-store';
import { contentRowSchema, fileRowSchema } from './sync-rows';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await cleanup();
});

const CONTENT_STATES = ['queued', 'uploading', 'indexing', 'indexed', 'index_failed', 'failed', 'cancelled'] as const;
const FILE_STATES = ['pending', 'skipped', 'linked', 'deleted'] as const;

/** The counts the slow way: every file through the same function the file list uses. */
function walked(db: Db): Record<string, number> {
  const out: Record<string, number> = {};
  for (const raw of db.prepare('SELECT * FROM files').all()) {
    const f = fileRowSchema.parse(raw);
    const c = f.hash && f.state === 'linked' ? db.prepare('SELECT * FROM contents WHERE hash = ?').get(f.hash) : null;
    const s = fileStatus(f, c ? contentRowSchema.parse(c) : undefined);
    out[s] = (out[s] ?? 0) + 1;
  }
  return out;
}

/** A deterministic pseudo-random sequence, so a failure replays the same way. */
function lcg(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return (x >>> 12) % n;
  };
}

function randomWrites(db: Db, steps: number, seed: number): void {
  const pick = lcg(seed);
  const now = Date.now();
  const hash = (): string => `h${pick(12)}`;
  for (let i = 0; i < steps; i++) {
    const op = pick(9);
    const watch = 1 + pick(2);
    if (op === 0 || op === 1) {
      db.prepare(
        `INSERT OR IGNORE INTO files (watch_id, path, size, mtime_ms, observed_at, hash, state, updated_at)
         VALUES (?, ?, 1, 0, 0, ?, ?, 0)`,
      ).run(watch, `/w${watch}/f${pick(40)}`, pick(4) ? hash() : null, FILE_STATES[pick(4)]);
    } else if (op === 2) {
      db.prepare('UPDATE files SET state = ? WHERE id = ?').run(FILE_STATES[pick(4)], 1 + pick(40));
    } else if (op === 3) {
      db.prepare('UPDATE files SET hash = ?, state = ? WHERE id = ?').run(hash(), 'linked', 1 + pick(40));
    } else if (op === 4) {
      db.prepare('DELETE FROM files WHERE id = ?').run(1 + pick(40));
    } else if (op === 5) {
      db.prepare(
        'INSERT OR IGNORE INTO contents (hash, size, state, created_at, updated_at) VALUES (?, 1, ?, ?, ?)',
      ).run(hash(), CONTENT_STATES[pick(7)], now, now);
    } else if (op === 6) {
      db.prepare('UPDATE contents SET state = ? WHERE hash = ?').run(CONTENT_STATES[pick(7)], hash());
    } else if (op === 7) {
      db.prepare('DELETE FROM contents WHERE hash = ?').run(hash());
    } else if (pick(30) === 0) {
      // Removing a watch folder deletes its files by cascade: the counts must follow.
      db.prepare('DELETE FROM watch_folders WHERE id = ?').run(watch);
      db.prepare('INSERT INTO watch_folders (id, path, created_at) VALUES (?, ?, ?)').run(watch, `/w${watch}`, now);
    }
  }
}

function addWatchFolders(db: Db): void {
  for (const id of [1, 2]) {
    db.prepare('INSERT INTO watch_folders (id, path, created_at) VALUES (?, ?, ?)').run(id, `/w${id}`, Date.now());
  }
}

/** Files in every status: one linked to a content in each content state, and pending, skipped and deleted ones. */
function everyStatus(db: Db): void {
  const now = Date.now();
  const file = db.prepare(
    `INSERT INTO files (watch_id, path, size, mtime_ms, observed_at, hash, state, updated_at)
     VALUES (1, ?, 1, 0, 0, ?, ?, 0)`,
  );
  for (const state of CONTENT_STATES) {
    db.prepare('INSERT INTO contents (hash, size, state, created_at, updated_at) VALUES (?, 1, ?, ?, ?)').run(
      `c-${state}`,
      state,
      now,
      now,
    );
    file.run(`/w1/${state}.mov`, `c-${state}`, 'linked');
  }
  for (const state of FILE_STATES) file.run(`/w1/${state}-own.mov`, null, state);
}

describe('file status counts (migration 9)', () => {
  it('match the walk over every file after any mix of writes, cascades included', () => {
    const db = openDatabase(join(dir, 'client.db'));
    const store = new SyncStore(db);
    addWatchFolders(db);
    const seen = new Set<string>();
    for (let round = 0; round < 30; round++) {
      randomWrites(db, 40, round + 1);
      expect(store.statusCounts(), `round ${round}`).toEqual(walked(db));
      for (const status of Object.keys(walked(db))) seen.add(status);
    }
    expect(seen.size).toBeGreaterThanOrEqual(8);
    expect(Object.values(store.statusCounts()).reduce((a, b) => a + b, 0)).toBe(
      (db.prepare('SELECT COUNT(*) AS n FROM files').get() as { n: number }).n,
    );
    db.close();
  });

  it('start from the files a library already had when the migration runs', () => {
    const file = join(dir, 'client.db');
    const before = openDatabase(file, { migrations: clientMigrations.slice(0, 8) });
    addWatchFolders(before);
    randomWrites(before, 300, 7);
    everyStatus(before);
    const expected = walked(before);
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(8);
    before.close();
    const after = openDatabase(file);
    expect(new SyncStore(after).statusCounts()).toEqual(expected);
    after.close();
  });
});
