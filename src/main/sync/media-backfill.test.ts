import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturePath } from '../../../test/fixtures/media';
import { tempDir } from '../../../test/helpers/temp';
import { createLogger } from '../log';
import { MetadataReader } from '../media/exif';
import { openDatabase, type Db } from '../store/database';
import { SyncStore } from '../store/sync-store';
import { backfillMedia } from './media-backfill';

let dir: string;
let cleanup: () => Promise<void>;
let db: Db;
let metadata: MetadataReader;
const logger = createLogger('test');
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  db = openDatabase(join(dir, 'client.db'));
  metadata = new MetadataReader(logger);
  await metadata.start();
});
afterEach(async () => {
  await metadata.stop();
  db.close();
  await cleanup();
});

describe('media facts for files linked before client migration 6', () => {
  it('reads them once with ffprobe and exiftool, leaves unreadable files blank and every state untouched', async () => {
    const store = new SyncStore(db);
    const w = store.addWatchFolder({
      path: dir,
      folderId: null,
      folderName: null,
      tags: [],
      ignore: [],
      polling: 'auto',
    });
    const phone = join(dir, 'phone.mp4');
    copyFileSync(fixturePath('phoneH264Mp4'), phone);
    const broken = join(dir, 'broken.mp4');
    writeFileSync(broken, 'not a video');
    const ids = [phone, broken, join(dir, 'pending.mp4')].map((p) => store.recordFile(w.id, p, 1, 1, 1).id);
    store.setFileState(ids[0] ?? 0, 'linked', null);
    store.setFileState(ids[1] ?? 0, 'linked', null);
    const seen: number[] = [];

    const done = await backfillMedia({
      store,
      metadata,
      logger,
      signal: new AbortController().signal,
      onFile: (id) => seen.push(id),
    });

    expect(done).toBe(1);
    expect(seen).toEqual([ids[0]]);
    const f = store.file(ids[0] ?? 0);
    expect({
      codec: f?.codec,
      width: f?.width,
      height: f?.height,
      fps: f?.fps,
      camera: f?.camera,
      state: f?.state,
    }).toEqual({
      codec: 'h264',
      width: 640,
      height: 360,
      fps: 30,
      camera: 'Apple iPhone 15 Pro',
      state: 'linked',
    });
    expect(f?.duration).toBeCloseTo(3, 1);
    expect(store.file(ids[1] ?? 0)?.codec).toBeNull();
    expect(store.file(ids[1] ?? 0)?.state).toBe('linked');
    expect(store.linkedFilesWithoutMedia()).toEqual([ids[1]]);
  });
});
