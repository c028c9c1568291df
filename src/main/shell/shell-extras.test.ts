import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SyncStatus } from '../../shared/contract/sync';
import { EventBus } from '../events';
import { createLogger } from '../log';

vi.mock('electron', () => ({}));

const { TrayController } = await import('./tray');
const { dotBitmap, trayLabel, trayStateOf } = await import('./tray-state');
const { SyncNotifier } = await import('./notifier');
const { installCleanQuit } = await import('./quit');
const { interceptFileDrops, dropSummary } = await import('./drop');
const { desktopHooks } = await import('./desktop-hooks');

const status = (by: Record<string, number>, paused: SyncStatus['paused'] = null): SyncStatus => ({
  paused,
  folders: 1,
  files: {},
  byStatus: by,
  jobs: { queued: 0, active: 0, failed: 0 },
});
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('tray', () => {
  it('names the sync state: idle, syncing N, paused (and why), error', () => {
    expect(trayLabel(trayStateOf(status({ indexed: 3 }), null))).toBe('Idle · 3 searchable');
    expect(trayLabel(trayStateOf(status({ queued: 2, uploading: 1, indexing: 1, indexed: 3 }), null))).toBe(
      'Syncing 4',
    );
    expect(trayLabel(trayStateOf(status({ queued: 2 }, { reason: 'user' }), null))).toBe('Paused');
    expect(trayLabel(trayStateOf(status({}, { reason: 'insufficient-balance' }), null))).toBe(
      'Paused: balance too low',
    );
    expect(trayLabel(trayStateOf(status({ failed: 2, indexed: 1 }), null))).toBe('Error: 2 files failed');
    expect(trayLabel(trayStateOf(null, 'no library service is configured'))).toBe(
      'Error: no library service is configured',
    );
  });

  it('draws a round dot bitmap (BGRA) in the state colour', () => {
    const px = dotBitmap([255, 0, 0], 16);
    expect(px.length).toBe(16 * 16 * 4);
    const at = (x: number, y: number) => [...px.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4)];
    expect(at(8, 8)).toEqual([0, 0, 255, 255]);
    expect(at(0, 0)[3]).toBe(0);
  });

  it('redraws on queue events and pauses/resumes from its menu', async () => {
    const events = new EventBus();
    let current = status({ queued: 2 });
    const menus: MenuItemConstructorOptions[][] = [];
    const tray = { setImage: vi.fn(), setToolTip: vi.fn(), setContextMenu: vi.fn(), destroy: vi.fn() };
    const actions = {
      status: vi.fn(() => Promise.resolve({ status: current, problem: null })),
      pause: vi.fn(() => {
        current = status({ queued: 2 }, { reason: 'user' });
        return Promise.resolve();
      }),
      resume: vi.fn(() => Promise.resolve()),
      open: vi.fn(),
      quit: vi.fn(),
    };
    const controller = new TrayController(
      {
        image: (bgra: Buffer) => bgra.length,
        menu: (t: MenuItemConstructorOptions[]) => (menus.push(t), menus.length),
        tray: () => tray,
      },
      actions,
      events,
      60_000,
    );
    await controller.start();
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Reelsync · Syncing 2');
    const item = (label: string) => menus.at(-1)?.find((m) => m.label === label);
    item('Pause syncing')?.click?.({} as never, undefined, {});
    await vi.waitFor(() => expect(tray.setToolTip).toHaveBeenLastCalledWith('Reelsync · Paused'));
    expect(actions.pause).toHaveBeenCalledTimes(1);
    expect(item('Resume syncing')).toBeDefined();
    current = status({ indexed: 2 });
    events.emit('sync:queue', { paused: null });
    await vi.waitFor(() => expect(tray.setToolTip).toHaveBeenLastCalledWith('Reelsync · Idle · 2 searchable'));
    item('Open Reelsync')?.click?.({} as never, undefined, {});
    expect(actions.open).toHaveBeenCalledTimes(1);
    const draws = tray.setContextMenu.mock.calls.length;
    await controller.refresh();
    expect(tray.setContextMenu.mock.calls.length).toBe(draws);
    controller.stop();
    expect(tray.destroy).toHaveBeenCalledTimes(1);
  });
});

describe('notifications', () => {
  afterEach(() => vi.useRealTimers());

  it('tells of a finished batch, one coalesced note for rejected files, balance and failed downloads', async () => {
    vi.useFakeTimers();
    const events = new EventBus();
    const notes: { title: string; body: string }[] = [];
    let current = status({ uploading: 1, indexed: 1 });
    const n = new SyncNotifier({
      events,
      status: () => Promise.resolve(current),
      notify: (x) => notes.push(x),
      coalesceMs: 100,
    });
    n.start();
    events.emit('sync:file-changed', { id: 1, path: '/f/a.mp4', status: 'indexed', reason: null });
    events.emit('sync:file-changed', {
      id: 2,
      path: '/f/bad.avi',
      status: 'skipped',
      reason: 'codec mpeg4 is not accepted',
    });
    events.emit('sync:file-changed', {
      id: 3,
      path: '/f/empty.mp4',
      status: 'skipped',
      reason: 'empty file (0 bytes)',
    });
    await vi.advanceTimersByTimeAsync(150);
    expect(notes).toEqual([
      {
        title: '2 files were rejected',
        body: 'bad.avi: codec mpeg4 is not accepted (and 1 more: see Library → Rejected)',
      },
    ]);
    current = status({ indexed: 2 });
    events.emit('sync:file-changed', { id: 4, path: '/f/b.mp4', status: 'indexed', reason: null });
    await vi.advanceTimersByTimeAsync(250);
    expect(notes[1]).toEqual({ title: 'Sync finished', body: '2 files are now searchable.' });
    events.emit('sync:queue', { paused: { reason: 'insufficient-balance' } });
    events.emit('downloads:progress', { id: 7, state: 'gone', bytes: 0, total: null, rate: 0, etaSeconds: null });
    expect(notes.slice(2).map((x) => x.title)).toEqual(['Uploads paused: balance too low', 'Download gone']);
    n.stop();
    events.emit('sync:queue', { paused: { reason: 'insufficient-balance' } });
    expect(notes).toHaveLength(4);
  });
});

describe('clean quit', () => {
  it('holds the first quit until stop has finished, then quits once', async () => {
    const listeners: ((e: { preventDefault: () => void }) => void)[] = [];
    const app = {
      on: vi.fn((_name: string, fn: (e: { preventDefault: () => void }) => void) => listeners.push(fn)),
      quit: vi.fn(),
    };
    let finish: () => void = () => undefined;
    const stop = vi.fn(() => new Promise<void>((r) => (finish = r)));
    const q = installCleanQuit(app as never, stop, createLogger('test'));
    const fire = () => {
      const e = { preventDefault: vi.fn() };
      listeners.forEach((l) => l(e));
      return e;
    };
    expect(fire().preventDefault).toHaveBeenCalled();
    expect(q.quitting()).toBe(true);
    expect(fire().preventDefault).toHaveBeenCalled();
    expect(stop).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();
    finish();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    expect(fire().preventDefault).not.toHaveBeenCalled();
  });

  it('quits anyway when stop hangs past its time limit or fails', async () => {
    const listeners: ((e: { preventDefault: () => void }) => void)[] = [];
    const app = {
      on: (_n: string, fn: (e: { preventDefault: () => void }) => void) => listeners.push(fn),
      quit: vi.fn(),
    };
    installCleanQuit(app as never, () => new Promise<void>(() => undefined), createLogger('test'), 20);
    listeners.forEach((l) => l({ preventDefault: () => undefined }));
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    const other = {
      on: (_n: string, fn: (e: { preventDefault: () => void }) => void) => listeners.splice(0, 1, fn),
      quit: vi.fn(),
    };
    installCleanQuit(other as never, () => Promise.reject(new Error('db busy')), createLogger('test'));
    listeners[0]?.({ preventDefault: () => undefined });
    await vi.waitFor(() => expect(other.quit).toHaveBeenCalledTimes(1));
  });
});

describe('drops and drags', () => {
  it('turns a file:// navigation from a drop into sync:add-paths and cancels it; other navigations are left alone', async () => {
    let handler: ((e: { preventDefault: () => void }, url: string) => void) | undefined;
    const contents = { on: (_n: string, fn: typeof handler) => (handler = fn) };
    const add = vi.fn((paths: string[]) =>
      Promise.resolve(
        paths.map((path) => ({
          path,
          kind: 'folder' as const,
          outcome: 'watching' as const,
          detail: 'watched',
          watchId: 1,
        })),
      ),
    );
    const told: { title: string; body: string }[] = [];
    interceptFileDrops(contents as never, add, (n) => told.push(n));
    const prevent = vi.fn();
    handler?.({ preventDefault: prevent }, 'file:///footage/Day%201');
    expect(prevent).toHaveBeenCalledTimes(1);
    await flush();
    expect(add).toHaveBeenCalledWith(['/footage/Day 1']);
    expect(told).toEqual([{ title: 'Footage added', body: '1 folder now watched' }]);
    handler?.({ preventDefault: prevent }, 'reelsync://app/index.html');
    expect(prevent).toHaveBeenCalledTimes(1);
    expect(
      dropSummary([
        { path: '/x.txt', kind: 'file', outcome: 'rejected', detail: 'extension .txt is not accepted', watchId: null },
      ]),
    ).toEqual({ title: 'Nothing was added', body: '/x.txt: extension .txt is not accepted' });
  });

  it('words the drop note by what was added: a single file is a file, not a folder', () => {
    const r = (path: string, kind: 'folder' | 'file' | null, outcome: 'watching' | 'already-watched' | 'rejected') => ({
      path,
      kind,
      outcome,
      detail: 'why',
      watchId: null,
    });
    expect(dropSummary([r('/a.mp4', 'file', 'watching')])).toEqual({
      title: 'Footage added',
      body: '1 file now watched',
    });
    expect(
      dropSummary([r('/d1', 'folder', 'watching'), r('/d2', 'folder', 'watching'), r('/b.mov', 'file', 'watching')]),
    ).toEqual({ title: 'Footage added', body: '2 folders and 1 file now watched' });
    expect(
      dropSummary([
        r('/w/c.mp4', 'file', 'already-watched'),
        r('/w/e.mp4', 'file', 'already-watched'),
        r('/gone', null, 'rejected'),
      ]),
    ).toEqual({
      title: 'Footage added',
      body: '2 files already watched (rescanned)\n/gone: why',
    });
  });

  it('starts an OS drag of the clip file with its still, or the fallback icon', () => {
    const startDrag = vi.fn<(item: { file: string; icon: unknown }) => void>();
    const still = { isEmpty: () => false, resize: vi.fn(() => 'small-still') };
    const empty = { isEmpty: () => true, resize: vi.fn() };
    const shown: string[] = [];
    const hooks = desktopHooks({
      contents: () => ({ startDrag }),
      imageFromPath: (p: string) => (p.endsWith('clip-1.jpg') ? still : empty) as never,
      fallbackIcon: () => 'fallback' as never,
      showItemInFolder: (p) => shown.push(p),
    });
    hooks.startDrag('/clips/a.mp4', '/thumbs/clip-1.jpg');
    hooks.startDrag('/clips/b.mp4', '/thumbs/missing.jpg');
    hooks.startDrag('/clips/c.mp4', null);
    expect(startDrag.mock.calls.map(([item]) => [item.file, item.icon])).toEqual([
      ['/clips/a.mp4', 'small-still'],
      ['/clips/b.mp4', 'fallback'],
      ['/clips/c.mp4', 'fallback'],
    ]);
    hooks.reveal('/clips/a.mp4');
    expect(shown).toEqual(['/clips/a.mp4']);
    expect(() =>
      desktopHooks({
        contents: () => null,
        imageFromPath: () => empty as never,
        fallbackIcon: () => 'f' as never,
        showItemInFolder: () => undefined,
      }).startDrag('/a', null),
    ).toThrow(/no window/);
  });
});
