import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { EventBus } from '../events';
import { createLogger } from '../log';
import { AppSettings } from '../settings/app-settings';
import { databaseVault } from '../settings/key-vault';
import { openDatabase, type Db } from '../store/database';
import type { Note } from './notifier';

vi.mock('electron', () => ({}));

const { handleWindowClose, keepsRunningInTray, TRAY_HINT } = await import('./close');
const { installCleanQuit } = await import('./quit');
const { TrayController } = await import('./tray');

type Prevent = { preventDefault(): void; prevented: boolean };
const event = (): Prevent => {
  const e = { prevented: false, preventDefault: () => (e.prevented = true) };
  return e;
};

/** A BrowserWindow as the close handler sees it: 'close' listeners, hide, and whether it is gone. */
function fakeWindow() {
  const listeners: ((e: Prevent) => void)[] = [];
  const win = {
    visible: true,
    destroyed: false,
    on: (_name: 'close', fn: (e: Prevent) => void) => listeners.push(fn),
    hide: vi.fn(() => (win.visible = false)),
    show: () => (win.visible = true),
    /** The user clicks the close button (or the app closes its windows while quitting). */
    close: () => {
      const e = event();
      listeners.forEach((l) => l(e));
      if (!e.prevented) win.destroyed = true;
      return e;
    },
  };
  return win;
}

/** What Electron's app.quit does: before-quit (which may hold it), then close every window, then exit. */
function fakeApp(windows: ReturnType<typeof fakeWindow>[]) {
  const beforeQuit: ((e: Prevent) => void)[] = [];
  const app = {
    exited: false,
    on: (_name: string, fn: (e: Prevent) => void) => beforeQuit.push(fn),
    quit: vi.fn(() => {
      const e = event();
      beforeQuit.forEach((l) => l(e));
      if (e.prevented) return;
      if (windows.every((w) => w.destroyed || !w.close().prevented)) app.exited = true;
    }),
  };
  return app;
}

const idle = () =>
  Promise.resolve({
    status: {
      paused: null,
      folders: 1,
      files: {},
      byStatus: { indexed: 1 },
      jobs: { queued: 0, active: 0, failed: 0 },
    },
    problem: null,
  });

/** The shell's wiring (index.ts) with electron's parts faked: tray, clean quit, settings in a real client db. */
async function shell(o: { trayFails?: boolean; setting?: 'tray' | 'quit' }) {
  const win = fakeWindow();
  const app = fakeApp([win]);
  const icon = { setImage: vi.fn(), setToolTip: vi.fn(), setContextMenu: vi.fn(), destroy: vi.fn() };
  const host = {
    image: (bgra: Buffer) => bgra.length,
    menu: () => 0,
    tray: () => {
      if (o.trayFails) throw new Error('no StatusNotifier host on this desktop');
      return icon;
    },
  };
  const tray = new TrayController(
    host,
    { status: idle, pause: vi.fn(), resume: vi.fn(), open: vi.fn(), quit: vi.fn() },
    new EventBus(),
    60_000,
  );
  const stop = vi.fn(() => {
    tray.stop();
    return Promise.resolve();
  });
  const log = createLogger('test');
  const cleanQuit = installCleanQuit(app as never, stop, log);
  if (o.setting) new AppSettings(db, databaseVault).setWindowClose(o.setting);
  const notes: Note[] = [];
  const settings = () => new AppSettings(db, databaseVault);
  const rules = {
    action: () => settings().windowClose(),
    trayPresent: () => tray.present(),
    quitting: () => cleanQuit.quitting(),
    quit: () => app.quit(),
    hint: {
      shown: () => settings().trayHintShown(),
      markShown: () => settings().setTrayHintShown(),
      notify: (n: Note) => notes.push(n),
    },
    log,
  };
  handleWindowClose(win, rules);
  const started = await tray.start();
  return { win, app, stop, tray, started, notes, rules };
}

let db: Db;
let cleanup: (() => Promise<void>) | undefined;

describe('closing the window (electron mocked)', () => {
  beforeEach(async () => {
    const t = await tempDir('reelsync-close-');
    cleanup = t.cleanup;
    db = openDatabase(join(t.dir, 'client.db'));
  });
  afterEach(async () => {
    db.close();
    await cleanup?.();
  });

  it('with a tray icon and the default setting: hides the window, keeps running, tells once that syncing goes on', async () => {
    const s = await shell({});
    expect(s.started).toEqual({ ok: true });
    expect(s.win.close().prevented).toBe(true);
    expect(s.win.hide).toHaveBeenCalledTimes(1);
    expect(s.win.destroyed).toBe(false);
    expect(s.app.quit).not.toHaveBeenCalled();
    expect(s.stop).not.toHaveBeenCalled();
    expect(s.notes).toEqual([TRAY_HINT]);
    s.win.show();
    expect(s.win.close().prevented).toBe(true);
    expect(s.win.visible).toBe(false);
    expect(s.notes).toHaveLength(1);
    expect(new AppSettings(db, databaseVault).trayHintShown()).toBe(true);
    expect(keepsRunningInTray(s.rules)).toBe(true);
    s.tray.stop();
  });

  it('with the setting "quit": hides the window and quits through the clean quit path (stop awaited, then exit)', async () => {
    const s = await shell({ setting: 'quit' });
    expect(s.win.close().prevented).toBe(true);
    expect(s.win.hide).toHaveBeenCalledTimes(1);
    expect(s.app.quit).toHaveBeenCalled();
    expect(s.stop).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(s.app.exited).toBe(true));
    expect(s.win.destroyed).toBe(true);
    expect(s.app.quit).toHaveBeenCalledTimes(2);
    expect(s.notes).toEqual([]);
  });

  it('quits when the tray icon could not be created, whatever the setting says', async () => {
    const s = await shell({ trayFails: true, setting: 'tray' });
    expect(s.started).toEqual({ ok: false, reason: 'no StatusNotifier host on this desktop' });
    expect(s.tray.present()).toBe(false);
    expect(keepsRunningInTray(s.rules)).toBe(false);
    s.win.close();
    expect(s.stop).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(s.app.exited).toBe(true));
    expect(s.notes).toEqual([]);
  });

  it('keeps to the tray when the setting cannot be read, and lets the window close during a quit from the tray', async () => {
    const s = await shell({});
    expect(
      keepsRunningInTray({
        ...s.rules,
        action: () => {
          throw new Error('database is closed');
        },
      }),
    ).toBe(true);
    s.app.quit();
    await vi.waitFor(() => expect(s.app.exited).toBe(true));
    expect(s.win.destroyed).toBe(true);
    expect(s.win.hide).not.toHaveBeenCalled();
  });
});
