import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { ReelsyncApp } from '../app';
import { createLogger } from '../log';
import { ClipsStore, type NewClip } from '../library/clips-store';
import { openDatabase } from '../store/database';
import { SyncStore } from '../store/sync-store';

const showItemInFolder = vi.fn<(path: string) => void>();
vi.mock('electron', () => ({ shell: { showItemInFolder } }));

const { shell } = await import('electron');
const { desktopHooks } = await import('./desktop-hooks');

let dir: string;
let cleanup: () => Promise<void>;
let app: ReelsyncApp;
let clipFile: string;
let footage: string;
const ids = { clip: 0, queuedClip: 0, file: 0, goneFile: 0 };

/** A ready clip, a clip still queued, a synced file and a file deleted from disk, in a real client database. */
function seed(dataDir: string): void {
  const db = openDatabase(join(dataDir, 'reelsync.db'));
  const clips = new ClipsStore(db);
  const clip: NewClip = {
    videoNo: 'V1',
    videoName: 'harbour.mp4',
    name: '',
    start: 1,
    end: 3,
    handles: 0,
    mode: 'copy',
    format: 'mp4',
    outDir: join(dataDir, 'clips'),
    outName: null,
    query: 'harbour',
    searchType: null,
    text: '',
    score: null,
    video: null,
    keyframe: null,
    tags: [],
    notes: '',
  };
  ids.clip = clips.create(clip).id;
  clips.setOutput(ids.clip, clipFile);
  clips.ready(ids.clip, { duration: 2, fps: 25, width: 64, height: 36, hasAudio: false, thumbnailPath: null });
  ids.queuedClip = clips.create(clip).id;
  const sync = new SyncStore(db);
  const watch = sync.addWatchFolder({
    path: footage,
    folderId: null,
    folderName: null,
    tags: [],
    ignore: [],
    polling: 'auto',
  });
  ids.file = sync.recordFile(watch.id, join(footage, 'day1.mp4'), 1, 1, 1).id;
  ids.goneFile = sync.recordFile(watch.id, join(footage, 'gone.mp4'), 1, 1, 1).id;
  db.close();
}

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-reveal-'));
  clipFile = join(dir, 'clips', 'harbour 00-01.mp4');
  footage = join(dir, 'Footage Day 1');
  await mkdir(join(dir, 'clips'));
  await mkdir(footage);
  await writeFile(clipFile, 'clip');
  await writeFile(join(footage, 'day1.mp4'), 'x');
  seed(dir);
  app = new ReelsyncApp({ dataDir: dir, mode: 'electron', logger: createLogger('test') });
  app.desktop = desktopHooks({
    contents: () => null,
    imageFromPath: () => {
      throw new Error('no drag here');
    },
    fallbackIcon: () => {
      throw new Error('no drag here');
    },
    showItemInFolder: (path) => shell.showItemInFolder(path),
  });
  await app.start();
});

afterEach(async () => {
  await app.stop();
  await cleanup();
  vi.clearAllMocks();
});

describe('reveal in the file manager (electron mocked, real client database)', () => {
  it('shows a known clip and a known library file with shell.showItemInFolder at their real paths', async () => {
    expect(await app.registry.invoke('clips:reveal', { id: ids.clip })).toEqual({
      ok: true,
      value: { done: true, detail: clipFile },
    });
    expect(await app.registry.invoke('files:reveal', { id: ids.file })).toEqual({
      ok: true,
      value: { done: true, detail: join(footage, 'day1.mp4') },
    });
    expect(showItemInFolder.mock.calls).toEqual([[clipFile], [join(footage, 'day1.mp4')]]);
  });

  it('refuses unknown ids, clips without a file, files gone from disk and any path sent by the renderer', async () => {
    expect(await app.registry.invoke('clips:reveal', { id: 999 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await app.registry.invoke('files:reveal', { id: 999 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await app.registry.invoke('clips:reveal', { id: ids.queuedClip })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await app.registry.invoke('files:reveal', { id: ids.goneFile })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(JSON.stringify(await app.registry.invoke('files:reveal', { id: ids.goneFile }))).toContain('gone from disk');
    expect(await app.registry.invoke('files:reveal', { id: ids.file, path: '/etc/passwd' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await app.registry.invoke('clips:reveal', { path: '/etc/passwd' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await app.registry.invoke('files:reveal', { id: -1 })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    await rm(clipFile);
    expect(await app.registry.invoke('clips:reveal', { id: ids.clip })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(showItemInFolder).not.toHaveBeenCalled();
  });
});
