import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import type { Result } from '../../shared/errors';
import { ReelsyncApp } from '../app';
import { createLogger } from '../log';

vi.mock('electron', () => ({}));

const { nativeChooser } = await import('./dialogs');
const { registerIpc } = await import('./ipc');

type Handler = (
  event: { senderFrame: { url: string } | null },
  req: unknown,
) => Promise<Result<unknown>> | Result<unknown>;

let dir: string;
let cleanup: () => Promise<void>;
let app: ReelsyncApp;
const handlers = new Map<string, Handler>();
/** What the next native dialog answers: a path, or null for Cancel. */
let answer: string | null = null;
const dialog = {
  showSaveDialog: vi.fn(() => Promise.resolve({ canceled: answer === null, filePath: answer ?? '' })),
  showOpenDialog: vi.fn(() =>
    Promise.resolve({ canceled: answer === null, filePaths: answer === null ? [] : [answer] }),
  ),
};

/** A renderer call as the preload makes it: through ipcMain, from the app's own origin. */
async function call(channel: string, req: unknown): Promise<Result<Record<string, unknown>>> {
  const h = handlers.get(channel);
  if (!h) throw new Error(`no handler for ${channel}`);
  return (await h({ senderFrame: { url: 'reelsync://app/index.html' } }, req)) as Result<Record<string, unknown>>;
}

async function grant(purpose: string, path: string | null, suggestedName?: string): Promise<string> {
  answer = path;
  const r = await call('destinations:choose', { purpose, suggestedName });
  if (!r.ok) throw new Error(r.error.message);
  const chosen = r.value.chosen as { grant: string; path: string } | null;
  return chosen?.grant ?? '';
}

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-dialogs-'));
  app = new ReelsyncApp({ dataDir: join(dir, 'data'), mode: 'electron', logger: createLogger('test') });
  app.chooser = nativeChooser(dialog, () => null);
  const handle = vi.fn<(channel: string, fn: Handler) => void>((channel, fn) => void handlers.set(channel, fn));
  registerIpc({ handle }, app.registry, 'reelsync://app');
  await app.start();
});
afterEach(async () => {
  await app.stop();
  await cleanup();
  vi.clearAllMocks();
});

describe('destinations from the native dialogs (electron mocked)', () => {
  it('a save dialog grants one export anywhere the user picked, once; Cancel grants nothing', async () => {
    const desktop = join(dir, 'Desktop');
    await mkdir(desktop);
    const target = join(desktop, 'markers.edl');
    const id = await grant('export', target, 'reelsync-clips.edl');
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(
      expect.objectContaining({
        defaultPath: join(dir, 'data', 'exports', 'reelsync-clips.edl'),
        filters: [{ name: 'EDL', extensions: ['edl'] }],
      }),
    );
    const written = await call('clips:export', { format: 'edl', fileGrant: id });
    expect(written).toMatchObject({ ok: true, value: { file: target } });
    expect((await stat(target)).mode & 0o777).toBe(0o644);
    expect(await call('clips:export', { format: 'edl', fileGrant: id })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await grant('export', null)).toBe('');
    expect(await call('clips:export', { format: 'edl', file: target })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('replaces an existing file only with a fresh grant and the explicit flag; a typed path never does', async () => {
    const target = join(dir, 'list.csv');
    await writeFile(target, 'old');
    const first = await grant('export', target);
    expect(await call('clips:export', { format: 'csv', fileGrant: first })).toMatchObject({
      ok: false,
      error: { code: 'file_exists' },
    });
    expect(await readFile(target, 'utf8')).toBe('old');
    // The refused write did not use the grant up: the same answer of the dialog may now replace.
    expect(await call('clips:export', { format: 'csv', fileGrant: first, onExists: 'replace' })).toMatchObject({
      ok: true,
      value: { file: target },
    });
    expect(await readFile(target, 'utf8')).toMatch(/^\ufeff"id"/);
    expect(await call('clips:export', { format: 'csv', fileGrant: first, onExists: 'replace' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('a folder picker grants a clip folder and a download folder', async () => {
    const reels = join(dir, 'Reels');
    const clipGrant = await grant('clips', reels);
    expect(dialog.showOpenDialog).toHaveBeenCalledWith(
      expect.objectContaining({ properties: ['openDirectory', 'createDirectory'] }),
    );
    const saved = await call('clips:save', { videoNo: 'V-1', start: 0, end: 1, outDirGrant: clipGrant });
    expect(saved.ok).toBe(true);
    expect((await stat(reels)).isDirectory()).toBe(true);
    expect(await call('clips:save', { videoNo: 'V-1', start: 0, end: 1, outDirGrant: clipGrant })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    const exportGrant = await grant('export', join(dir, 'x.csv'));
    expect(
      await call('downloads:start', { bucket: 'b', blob: 'keyframes/x.jpg', destDirGrant: exportGrant }),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const roots = await call('destinations:roots', {});
    expect(roots).toMatchObject({ ok: true, value: { dialog: true } });
  });
});

describe('the folder picker for watching (electron mocked)', () => {
  it('answers the folder the native dialog returned, or null on Cancel; without a dialog it says to type the path', async () => {
    answer = join(dir, 'Shoot');
    expect(await call('folders:choose', {})).toEqual({ ok: true, value: { path: answer } });
    expect(dialog.showOpenDialog).toHaveBeenLastCalledWith(
      expect.objectContaining({ properties: expect.arrayContaining(['openDirectory']) as unknown }),
    );
    answer = null;
    expect(await call('folders:choose', {})).toEqual({ ok: true, value: { path: null } });
    app.chooser = undefined;
    const web = await call('folders:choose', {});
    expect(web.ok ? null : web.error.message).toMatch(/no folder picker: type or paste/);
  });
});
