import type { Db } from '../store/database';
import { AppSettings, type WindowState } from '../settings/app-settings';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A display as `screen.getAllDisplays()` gives it: the work area leaves out the dock, taskbar and menu bar. */
export interface DisplayArea {
  workArea: Rect;
}

export const DEFAULT_WINDOW_SIZE = { width: 1440, height: 900 } as const;
export const MIN_WINDOW_SIZE = { width: 960, height: 600 } as const;
/** Less of the window than this on a display (each way) and it counts as lost: it could not be grabbed to move it. */
const MIN_VISIBLE = 64;

export type { WindowState };

/** The saved window state from the client settings; a missing, damaged or hand-edited value reads as none. */
export function loadWindowState(db: Db): WindowState | null {
  return new AppSettings(db).windowState();
}

export function saveWindowState(db: Db, state: WindowState): void {
  new AppSettings(db).setWindowState(state);
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

function fitSize(want: { width: number; height: number }, area: Rect): { width: number; height: number } {
  const fit = (n: number, min: number, max: number): number => Math.min(max, Math.max(Math.min(min, max), n));
  return {
    width: fit(want.width, MIN_WINDOW_SIZE.width, area.width),
    height: fit(want.height, MIN_WINDOW_SIZE.height, area.height),
  };
}

function centred(size: { width: number; height: number }, area: Rect): Rect {
  return {
    ...size,
    x: area.x + Math.round((area.width - size.width) / 2),
    y: area.y + Math.round((area.height - size.height) / 2),
  };
}

/**
 * Where the window opens: the saved bounds on the display holding most of them, shrunk to fit it and pulled fully
 * inside its work area; centred on the primary display when there is no saved state or the display it was on is gone
 * (a laptop taken off its second monitor). The maximised state is kept either way.
 */
export function placeWindow(
  saved: WindowState | null,
  displays: DisplayArea[],
  primary: DisplayArea,
): { bounds: Rect; maximized: boolean } {
  if (!saved)
    return { bounds: centred(fitSize(DEFAULT_WINDOW_SIZE, primary.workArea), primary.workArea), maximized: false };
  let best: { area: Rect; shown: number } | null = null;
  for (const { workArea } of displays) {
    const o = overlap(saved, workArea);
    const shown = o.width >= MIN_VISIBLE && o.height >= MIN_VISIBLE ? o.width * o.height : 0;
    if (shown > 0 && (!best || shown > best.shown)) best = { area: workArea, shown };
  }
  if (!best) return { bounds: centred(fitSize(saved, primary.workArea), primary.workArea), maximized: saved.maximized };
  const area = best.area;
  const size = fitSize(saved, area);
  const x = Math.min(Math.max(saved.x, area.x), area.x + area.width - size.width);
  const y = Math.min(Math.max(saved.y, area.y), area.y + area.height - size.height);
  return { bounds: { ...size, x, y }, maximized: saved.maximized };
}

/** The parts of a BrowserWindow the tracker uses. */
export interface TrackedWindow {
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown;
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isDestroyed(): boolean;
}

/**
 * Saves the window's normal (unmaximised) bounds and whether it is maximised: shortly after it moves or resizes, and
 * when it closes. `stop()` saves one last time and then no more (the shell calls it on quit, before the database
 * closes: the window's own close comes after that). A failed save is reported, never thrown into Electron's events.
 */
export function trackWindowState(
  win: TrackedWindow,
  save: (state: WindowState) => void,
  onError: (err: unknown) => void,
  debounceMs = 400,
): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (stopped || win.isDestroyed()) return;
    const b = win.getNormalBounds();
    try {
      save({
        x: Math.round(b.x),
        y: Math.round(b.y),
        width: Math.round(b.width),
        height: Math.round(b.height),
        maximized: win.isMaximized(),
      });
    } catch (err) {
      onError(err);
    }
  };
  const soon = (): void => {
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) win.on(event, soon);
  win.on('close', flush);
  return {
    stop: () => {
      flush();
      stopped = true;
    },
  };
}
