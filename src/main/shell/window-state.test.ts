import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { openDatabase, type Db } from '../store/database';
import { SettingsStore } from '../store/settings-store';
import {
  DEFAULT_WINDOW_SIZE,
  loadWindowState,
  placeWindow,
  saveWindowState,
  trackWindowState,
  type Rect,
} from './window-state';

const laptop = { workArea: { x: 0, y: 25, width: 1440, height: 875 } };
const monitorRight = { workArea: { x: 1440, y: 0, width: 2560, height: 1440 } };

/** A BrowserWindow as the tracker sees it: its events, normal bounds, maximised and destroyed flags. */
class FakeWindow extends EventEmitter {
  bounds: Rect = { x: 100, y: 100, width: 1200, height: 800 };
  maximized = false;
  destroyed = false;
  getNormalBounds = (): Rect => ({ ...this.bounds });
  isMaximized = (): boolean => this.maximized;
  isDestroyed = (): boolean => this.destroyed;
}

let dir: string;
let cleanup: () => Promise<void>;
let db: Db;
let errors: unknown[];
beforeEach(async () => {
  errors = [];
  ({ dir, cleanup } = await tempDir('reelsync-window-'));
  db = openDatabase(join(dir, 'reelsync.db'));
});
afterEach(async () => {
  db.close();
  await cleanup();
});

describe('window placement', () => {
  it('opens at the default size, centred on the primary display, the first time', () => {
    expect(placeWindow(null, [laptop], laptop)).toEqual({
      bounds: { x: 0, y: 25, ...DEFAULT_WINDOW_SIZE, height: 875 },
      maximized: false,
    });
    const big = { workArea: { x: 0, y: 0, width: 2560, height: 1440 } };
    expect(placeWindow(null, [big], big).bounds).toEqual({ x: 560, y: 270, ...DEFAULT_WINDOW_SIZE });
  });

  it('keeps saved bounds that are on a display, and the maximised state', () => {
    const saved = { x: 1600, y: 200, width: 1800, height: 1000, maximized: true };
    expect(placeWindow(saved, [laptop, monitorRight], laptop)).toEqual({
      bounds: { x: 1600, y: 200, width: 1800, height: 1000 },
      maximized: true,
    });
  });

  it('brings a window back from a monitor that is gone, onto the primary display, at a size that fits', () => {
    const saved = { x: 1600, y: 200, width: 1800, height: 1000, maximized: false };
    expect(placeWindow(saved, [laptop], laptop)).toEqual({
      bounds: { x: 0, y: 25, width: 1440, height: 875 },
      maximized: false,
    });
  });

  it('pulls a window hanging off the edge fully inside the display holding most of it', () => {
    expect(
      placeWindow({ x: -300, y: 700, width: 1000, height: 700, maximized: false }, [laptop, monitorRight], laptop)
        .bounds,
    ).toEqual({ x: 0, y: 200, width: 1000, height: 700 });
    // Mostly on the right monitor: it goes there, not to the primary one.
    expect(
      placeWindow({ x: 1300, y: 100, width: 1200, height: 800, maximized: false }, [laptop, monitorRight], laptop)
        .bounds,
    ).toEqual({ x: 1440, y: 100, width: 1200, height: 800 });
    // A sliver left on a display cannot be grabbed: treated as lost.
    expect(
      placeWindow({ x: 1400, y: 880, width: 1000, height: 700, maximized: false }, [laptop], laptop).bounds,
    ).toEqual({ x: 220, y: 113, width: 1000, height: 700 });
  });
});

describe('window state in the client database', () => {
  it('saves the normal bounds after moves and on close, and the next start reads them back', async () => {
    const win = new FakeWindow();
    trackWindowState(
      win,
      (s) => saveWindowState(db, s),
      (err) => errors.push(err),
      5,
    );
    win.bounds = { x: 220, y: 140, width: 1300, height: 820 };
    win.emit('move');
    win.emit('resize');
    expect(loadWindowState(db)).toBeNull();
    await new Promise((r) => setTimeout(r, 30));
    expect(loadWindowState(db)).toEqual({ x: 220, y: 140, width: 1300, height: 820, maximized: false });
    win.maximized = true;
    win.emit('close');
    db.close();
    db = openDatabase(join(dir, 'reelsync.db'));
    const saved = loadWindowState(db);
    expect(saved).toEqual({ x: 220, y: 140, width: 1300, height: 820, maximized: true });
    expect(placeWindow(saved, [laptop], laptop)).toEqual({
      bounds: { x: 140, y: 80, width: 1300, height: 820 },
      maximized: true,
    });
  });

  it('saves once more on stop and never after it: the window closes on quit after the database has', () => {
    const win = new FakeWindow();
    const tracker = trackWindowState(
      win,
      (s) => saveWindowState(db, s),
      (err) => errors.push(err),
      60_000,
    );
    win.emit('resize');
    tracker.stop();
    expect(loadWindowState(db)).toMatchObject({ width: 1200, height: 800 });
    win.bounds = { x: 0, y: 0, width: 999, height: 999 };
    win.emit('close');
    expect(loadWindowState(db)).toMatchObject({ width: 1200 });
    expect(errors).toEqual([]);
  });

  it('reports a failed save instead of throwing into the window event, and skips a destroyed window', () => {
    const win = new FakeWindow();
    const saves: unknown[] = [];
    trackWindowState(
      win,
      (s) => {
        saves.push(s);
        throw new Error('app not started');
      },
      (err) => errors.push(err),
      60_000,
    );
    expect(() => win.emit('close')).not.toThrow();
    expect(errors).toEqual([new Error('app not started')]);
    win.destroyed = true;
    win.emit('close');
    expect(saves).toHaveLength(1);
  });

  it('reads a damaged or out-of-range saved value as none', () => {
    const store = new SettingsStore(db);
    store.set('ui.window-state', '{not json');
    expect(loadWindowState(db)).toBeNull();
    store.set('ui.window-state', JSON.stringify({ x: 0, y: 0, width: -5, height: 10, maximized: false }));
    expect(loadWindowState(db)).toBeNull();
    store.set('ui.window-state', JSON.stringify({ x: 0, y: 0, width: 800, height: 600, maximized: 'yes' }));
    expect(loadWindowState(db)).toBeNull();
    expect(() => saveWindowState(db, { x: 0.5, y: 0, width: 1, height: 1, maximized: false })).toThrow();
  });
});
