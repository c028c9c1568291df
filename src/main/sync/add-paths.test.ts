import { createServer, type Server } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { channelNames } from '../../shared/contract';
import type { WatchFolderView } from '../../shared/contract/sync';
import { ReelsyncApp } from '../app';
import { LibraryClient } from '../api/client';
import { createLogger } from '../log';
import { openDatabase, type Db } from '../store/database';
import { SyncStore } from '../store/sync-store';
import { addPaths, type Watcher } from './add-paths';
import { DeletePolicy, RemoteDeleter } from './remote-delete';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

function fakeWatcher(existing: string[] = []): Watcher & { added: string[]; scans: number[][] } {
  const folders: WatchFolderView[] = existing.map((path, i) => ({
    id: i + 1,
    path,
    folderId: null,
    folderName: null,
    tags: [],
    ignore: [],
    polling: 'auto',
    stoppedAt: null,
  }));
  const w = {
    added: [] as string[],
    scans: [] as number[][],
    folders: () => folders,
    addFolder: (input: { path: string }) => {
      const f: WatchFolderView = {
        id: folders.length + 1,
        path: input.path,
        folderId: null,
        folderName: null,
        tags: [],
        ignore: [],
        polling: 'auto',
        stoppedAt: null,
      };
      folders.push(f);
      w.added.push(input.path);
      return Promise.resolve(f);
    },
    scanSoon: (ids: number[]) => w.scans.push(ids),
  };
  return w;
}

describe('sync:add-paths', () => {
  it('watches new folders and loose video files, rescans paths already watched, and refuses the rest with the reason', async () => {
    const watched = join(dir, 'watched');
    const fresh = join(dir, 'Day 2');
    await mkdir(join(watched, 'sub'), { recursive: true });
    await mkdir(fresh);
    await writeFile(join(watched, 'sub', 'a.mp4'), 'x');
    await writeFile(join(dir, 'loose.mov'), 'x');
    await writeFile(join(dir, 'notes.txt'), 'x');
    const w = fakeWatcher([watched]);
    const paths = [
      fresh,
      join(watched, 'sub'),
      join(watched, 'sub', 'a.mp4'),
      join(dir, 'loose.mov'),
      join(dir, 'notes.txt'),
      join(dir, 'nope'),
      'footage/day1',
    ];
    const results = await addPaths(paths, w);
    expect(results.map((r) => [r.outcome, r.watchId, r.kind])).toEqual([
      ['watching', 2, 'folder'],
      ['already-watched', 1, 'folder'],
      ['already-watched', 1, 'file'],
      ['watching', 3, 'file'],
      ['rejected', null, 'file'],
      ['rejected', null, null],
      ['rejected', null, null],
    ]);
    expect(results[3]?.detail).toBe('watched on its own (not its folder): queued now');
    expect(results[4]?.detail).toMatch(/extension \.txt is not accepted/);
    expect(results[5]?.detail).toMatch(/cannot read it/);
    expect(results[6]).toMatchObject({
      path: 'footage/day1',
      detail: expect.stringMatching(/^not a full path: .* Give the full path/) as unknown,
    });
    expect(w.added).toEqual([fresh, join(dir, 'loose.mov')]);
    expect(w.scans).toEqual([[2, 1, 3]]);
    // A sibling whose name starts like the watched folder is not inside it.
    const sibling = `${watched}-old`;
    await mkdir(sibling);
    expect((await addPaths([sibling], w))[0]?.outcome).toBe('watching');
  });
});

describe('remote delete policy', () => {
  let db: Db;
  let server: Server;
  let deletes: unknown[];
  let answer: { status: number; body: string };
  let base: string;

  beforeEach(async () => {
    db = openDatabase(join(dir, 'reelsync.db'));
    deletes = [];
    answer = { status: 200, body: '' };
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const nos = (JSON.parse(body) as { video_nos: string[] }).video_nos;
        deletes.push(nos);
        const reply =
          answer.body ||
          JSON.stringify({
            code: '0000',
            msg: 'success',
            success: true,
            failed: false,
            data: { deleted: nos.filter((n) => n !== 'GONE'), not_found: nos.filter((n) => n === 'GONE') },
          });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(reply);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/serve/api/v1`;
  });
  afterEach(async () => {
    db.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  /** A file uploaded as `videoNo`, then deleted on disk at `deletedAt` (or still there). */
  function file(store: SyncStore, path: string, hash: string, videoNo: string, deletedAt: number | null): void {
    const id = store.recordFile(1, path, 10, 1, 1).id;
    store.setFileHash(id, hash, 10, 1);
    if (!store.content(hash)) {
      store.createContent({ hash, size: 10, folderId: null, tags: [], meta: {} });
      store.setContentVideo(hash, videoNo, false);
    }
    store.setFileState(id, 'linked', null);
    if (deletedAt !== null)
      db.prepare(`UPDATE files SET state = 'deleted', updated_at = ? WHERE id = ?`).run(deletedAt, id);
  }

  it('keeps library copies by default; with delete on, deletes videos whose every local file went after it was turned on', async () => {
    const store = new SyncStore(db);
    store.addWatchFolder({ path: dir, folderId: null, folderName: null, tags: [], ignore: [], polling: 'auto' });
    const client = new LibraryClient({ baseUrl: base, key: 'k', logger: createLogger('test') });
    const deleter = new RemoteDeleter({ db, client: () => client, logger: createLogger('test') });
    const policy = new DeletePolicy(db);
    file(store, join(dir, 'old.mp4'), 'h-old', 'V-OLD', 1_000);
    expect(policy.get()).toBe('keep');
    expect(await deleter.reconcile()).toEqual({ deleted: [], notFound: [], error: null });

    policy.set('delete', 2_000);
    file(store, join(dir, 'a.mp4'), 'h-a', 'V-A', 3_000);
    file(store, join(dir, 'copy-of-b.mp4'), 'h-b', 'V-B', 3_100);
    file(store, join(dir, 'b.mp4'), 'h-b', 'V-B', null);
    file(store, join(dir, 'gone.mp4'), 'h-g', 'GONE', 3_200);
    expect(deleter.candidates().map((c) => c.videoNo)).toEqual(['V-A', 'GONE']);

    answer = { status: 503, body: 'down' };
    expect((await deleter.reconcile()).error).toMatch(/503|non-JSON/);
    answer = { status: 200, body: '' };
    expect(await deleter.reconcile()).toEqual({ deleted: ['V-A'], notFound: ['GONE'], error: null });
    expect(deletes).toEqual([
      ['V-A', 'GONE'],
      ['V-A', 'GONE'],
    ]);
    expect(deleter.candidates()).toEqual([]);
    await deleter.reconcile();
    expect(deletes).toHaveLength(2);
    await client.close();
  });
});

describe('registration', () => {
  it('the app registers a handler for every contract channel, the desktop ones included', () => {
    const app = new ReelsyncApp({ dataDir: dir, mode: 'web', logger: createLogger('test') });
    expect([...app.registry.registered()].sort()).toEqual([...channelNames].sort());
    expect(channelNames).toEqual(expect.arrayContaining(['sync:add-paths', 'clips:drag-out', 'clips:reveal']));
  });
});
