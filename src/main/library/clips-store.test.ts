import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { ClipsStore, type NewClip } from './clips-store';
import { openDatabase } from '../store/database';
import { clientMigrations } from '../store/migrations';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const clip = (over: Partial<NewClip>): NewClip => ({
  videoNo: 'v1',
  videoName: 'harbour.mp4',
  name: '',
  start: 1,
  end: 3,
  handles: 0,
  mode: 'accurate',
  format: 'mp4',
  outDir: dir,
  outName: null,
  query: 'boats',
  searchType: 'BY_CLIP',
  text: 'two boats',
  score: 0.5,
  video: null,
  keyframe: null,
  tags: [],
  notes: '',
  ...over,
});

describe('clip names', () => {
  it('stores the name, finds clips by it and by an edited name, never by the name they lost', () => {
    const db = openDatabase(join(dir, 'client.db'));
    const store = new ClipsStore(db);
    const named = store.create(clip({ name: '  Opening wide shot ' }));
    store.create(clip({ videoNo: 'v2', videoName: 'street.mp4', text: 'a tram' }));
    expect(named.name).toBe('Opening wide shot');
    expect(store.search('opening', 10).map((r) => r.id)).toEqual([named.id]);
    store.update(named.id, { name: 'Closing pan' });
    expect(store.search('opening', 10)).toEqual([]);
    expect(store.search('closing', 10).map((r) => r.name)).toEqual(['Closing pan']);
    expect(store.update(named.id, { notes: 'keep' })?.name).toBe('Closing pan');
    db.close();
  });

  it('migrates clips saved before names existed: kept, unnamed, still searchable', () => {
    const file = join(dir, 'old.db');
    const old = openDatabase(file, { migrations: clientMigrations.slice(0, 3) });
    old
      .prepare(
        `INSERT INTO clips (video_no, video_name, start_s, end_s, mode, format, out_dir, state, text, tags, created_at, updated_at)
                VALUES ('v9', 'ferry.mp4', 0, 2, 'accurate', 'mp4', ?, 'ready', 'gulls over the ferry', '["keeper"]', 1, 1)`,
      )
      .run(dir);
    old.close();
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(clientMigrations.length);
    const store = new ClipsStore(db);
    const [row] = store.search('gulls', 10);
    expect(row).toMatchObject({ video_no: 'v9', name: '', tags: ['keeper'] });
    store.update(row?.id ?? 0, { name: 'Ferry arrival' });
    expect(store.search('arrival', 10).map((r) => r.video_no)).toEqual(['v9']);
    expect(store.search('keeper', 10).map((r) => r.video_no)).toEqual(['v9']);
    db.close();
  });
});

describe('saved clip files', () => {
  it('knows a ready clip by its exact path only', () => {
    const db = openDatabase(join(dir, 'client.db'));
    const store = new ClipsStore(db);
    const row = store.create(clip({}));
    const path = join(dir, 'granted', 'opening.mp4');
    store.setOutput(row.id, path);
    expect(store.hasFile(path)).toBe(false); // still being cut
    store.ready(row.id, { duration: 2, fps: 25, width: 640, height: 360, hasAudio: false, thumbnailPath: null });
    expect(store.hasFile(path)).toBe(true);
    expect(store.hasFile(join(dir, 'granted', 'other.mp4'))).toBe(false);
    expect(store.hasFile(join(dir, 'granted'))).toBe(false);
    db.close();
  });
});
