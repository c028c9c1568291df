import { stat, utimes } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { makeTimecodeOriginal } from '../../../test/fixtures/timecode-originals';
import { useTempClientDb } from '../../../test/helpers/temp-db';
import { createLogger } from '../log';
import { backfillIdentities } from './identity-backfill';
import { SqliteIdentityStore } from './identity-store';

const t = useTempClientDb();

/** A watched, linked file row for `path` at its current size and mtime. */
async function linkedFile(path: string, id: number): Promise<void> {
  const info = await stat(path);
  const now = Date.now();
  t.db.prepare('INSERT OR IGNORE INTO watch_folders (id, path, created_at) VALUES (1, ?, ?)').run(t.dir, now);
  t.db
    .prepare(
      "INSERT INTO files (id, watch_id, path, size, mtime_ms, observed_at, state, updated_at) VALUES (?, 1, ?, ?, ?, ?, 'linked', ?)",
    )
    .run(id, path, info.size, Math.trunc(info.mtimeMs), now, now);
}

describe('identities in the client database', () => {
  test('read once per file, stored with it, read again when the file changes', async () => {
    const path = await makeTimecodeOriginal('df2997', t.dir);
    await linkedFile(path, 7);
    const store = new SqliteIdentityStore(t.db);
    const signal = new AbortController().signal;
    expect(store.staleFiles().map((f) => f.id)).toEqual([7]);
    expect(await backfillIdentities({ db: t.db, logger: createLogger('test'), signal })).toBe(1);
    expect(store.staleFiles()).toEqual([]);
    const row = t.db.prepare('SELECT start_timecode, rate, drop_frame, reel, clip_name FROM file_identity').get();
    expect(row).toEqual({
      start_timecode: '00:59:59;28',
      rate: '30000/1001',
      drop_frame: 1,
      reel: 'A007',
      clip_name: 'A007C012',
    });
    // The camera rewrites the file (another take under the same name): the sync engine records its new mtime.
    await makeTimecodeOriginal('film23976', t.dir, 'A007C012.mov');
    const later = new Date(Date.now() + 5000);
    await utimes(path, later, later);
    const info = await stat(path);
    t.db.prepare('UPDATE files SET size = ?, mtime_ms = ? WHERE id = 7').run(info.size, Math.trunc(info.mtimeMs));
    expect(store.staleFiles().map((f) => f.id)).toEqual([7]);
    expect(await backfillIdentities({ db: t.db, logger: createLogger('test'), signal })).toBe(1);
    expect(store.get(path, info.size, info.mtimeMs)?.startTimecode).toBe('14:22:09:23');
    // A deleted file row takes its identity with it.
    t.db.prepare('DELETE FROM files WHERE id = 7').run();
    expect(t.db.prepare('SELECT COUNT(*) AS n FROM file_identity').get()).toEqual({ n: 0 });
  });
});
