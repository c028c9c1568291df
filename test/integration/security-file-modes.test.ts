import { copyFile, lstat, mkdir, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReelsyncApp } from '../../src/main/app';
import { createLogger } from '../../src/main/log';
import { openDatabase } from '../../src/main/store/database';
import { chmodSync } from 'node:fs';
import { fixturePath } from '../fixtures/media';
import { tempDir } from '../helpers/temp';

/**
 * Issue 14 item 12: after a real upload, index and download, every folder of the client's data folder and of the
 * embedded service's is 0700 and every data file 0600 (exports, written for the user to share, are 0644). Run under
 * umask 000, so a file created with default modes would show as 0666.
 */
let dir: string;
let cleanup: () => Promise<void>;
let app: ReelsyncApp;
let previousUmask: number;

beforeAll(async () => {
  previousUmask = process.umask(0o000);
  ({ dir, cleanup } = await tempDir('reelsync-modes-'));
  const dataDir = join(dir, 'data');
  // A data folder from before: 0755, its database 0644.
  await mkdir(dataDir, { mode: 0o755 });
  openDatabase(join(dataDir, 'reelsync.db')).close();
  chmodSync(join(dataDir, 'reelsync.db'), 0o644);
  app = new ReelsyncApp({ dataDir, mode: 'web', connect: true, logger: createLogger('test') });
  await app.start();
}, 60_000);
afterAll(async () => {
  await app?.stop();
  await cleanup?.();
  process.umask(previousUmask);
});

async function call<T>(channel: string, req: unknown): Promise<T> {
  const r = await app.registry.invoke(channel, req);
  if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
  return r.value as T;
}

async function walk(root: string): Promise<{ path: string; dir: boolean; mode: number }[]> {
  const out: { path: string; dir: boolean; mode: number }[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    const info = await lstat(path);
    out.push({ path, dir: info.isDirectory(), mode: info.mode & 0o777 });
    if (info.isDirectory()) out.push(...(await walk(path)));
  }
  return out;
}

describe('data files at rest', () => {
  it('client and service data folders: folders 0700, files 0600, exports 0644', async () => {
    const footage = join(dir, 'footage');
    await mkdir(footage);
    await copyFile(fixturePath('phoneH264Mp4'), join(footage, 'phone.mp4'));
    await call('folders:add', { path: footage });
    await expect
      .poll(async () => (await call<{ byStatus: Record<string, number> }>('sync:status', {})).byStatus.indexed ?? 0, {
        timeout: 120_000,
        interval: 500,
      })
      .toBe(1);
    const files = await call<{ files: { videoNo: string }[] }>('sync:files', {});
    const detail = await call<{ original: { bucket: string; blob: string } }>('library:video', {
      videoNo: files.files[0]?.videoNo,
    });
    const download = await call<{ id: number }>('downloads:start', {
      bucket: detail.original.bucket,
      blob: detail.original.blob,
    });
    const done = await app.library.downloads.settled(download.id);
    expect(done.state).toBe('done');
    await call('clips:export', { format: 'csv', file: join(app.library.folders.exports, 'm.csv') });

    const dataDir = join(dir, 'data');
    const entries = [{ path: dataDir, dir: true, mode: (await lstat(dataDir)).mode & 0o777 }, ...(await walk(dataDir))];
    const names = entries.map((e) => relative(dataDir, e.path));
    for (const expected of [
      'reelsync.db',
      'reelsync.db-wal',
      'service',
      'service/service.db',
      'service/blobs',
      'downloads',
      'exports/m.csv',
    ])
      expect(names).toContain(expected);
    expect(names.some((n) => n.startsWith('service/blobs/') && n.endsWith('.mp4'))).toBe(true);
    expect(names.some((n) => n.startsWith('service/blobs/') && n.includes('keyframes'))).toBe(true);
    const wrong = entries
      .filter((e) => e.mode !== (e.dir ? 0o700 : relative(dataDir, e.path).startsWith('exports/') ? 0o644 : 0o600))
      .map((e) => `${relative(dataDir, e.path) || '.'} ${e.mode.toString(8)}`);
    expect(wrong).toEqual([]);
  }, 180_000);
});
