import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { describeError } from '../../shared/errors';
import type { Logger } from '../log';

/** The parts of Electron's app the lock uses. */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance', listener: (event: unknown, argv: string[], workingDirectory: string) => void): unknown;
  on(event: 'open-file', listener: (event: { preventDefault(): void }, path: string) => void): unknown;
}

/** The parts of a BrowserWindow brought to the front. */
export interface InstanceWindow {
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

export function bringToFront(win: InstanceWindow): void {
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

/**
 * The paths a launch was given (a folder dropped on the app's icon, `reelsync ~/Footage`): the arguments after the
 * executable (and after the app folder when Electron runs unpackaged), without switches Chromium adds, resolved
 * against the launch's working directory, kept only when they exist.
 */
export function launchPaths(argv: readonly string[], cwd: string, skip: number): string[] {
  const paths = argv
    .slice(skip)
    .filter((a) => a.length > 0 && !a.startsWith('-'))
    .map((a) => (isAbsolute(a) ? a : resolve(cwd, a)))
    .filter((p) => existsSync(p));
  return [...new Set(paths)];
}

export interface SingleInstanceOptions {
  /** The main window, created if there is none; only called once `ready()` ran. */
  window: () => InstanceWindow;
  /** Adds folders to the watched set (sync:add-paths) and tells the user what came of it. */
  addPaths: (paths: string[]) => Promise<void>;
  /** A getter: the lock is claimed before the app's logger opens its file (a second instance must not touch it). */
  log: () => Logger;
  /** How many leading arguments are Electron's own: 1 packaged, 2 when run as `electron <app folder>`. */
  skipArgs: number;
}

/**
 * One Reelsync per user: a second launch hands its paths to the first and quits; the first comes to the front (restored
 * if minimised) and watches those paths. Paths that arrive before the app is up (its own launch arguments, macOS
 * open-file events fired before ready) wait for `ready()`.
 */
export class SingleInstance {
  private pending: string[] = [];
  private started = false;

  constructor(
    private readonly app: SingleInstanceApp,
    private readonly o: SingleInstanceOptions,
  ) {}

  /** False when another instance holds the lock: this one must quit without starting anything. */
  claim(argv: readonly string[], cwd: string): boolean {
    if (!this.app.requestSingleInstanceLock()) return false;
    this.pending.push(...launchPaths(argv, cwd, this.o.skipArgs));
    this.app.on('second-instance', (_event, secondArgv, workingDirectory) => {
      this.o.log().info({ argv: secondArgv }, 'second launch: focusing this window');
      this.deliver(launchPaths(secondArgv, workingDirectory, this.o.skipArgs));
    });
    // macOS hands a folder dropped on the Dock icon (or opened with the app) to the running app this way.
    this.app.on('open-file', (event, path) => {
      event.preventDefault();
      this.deliver(existsSync(path) ? [path] : []);
    });
    return true;
  }

  /** The window and the sync engine are up: paths that waited are added now. */
  ready(): void {
    this.started = true;
    const waiting = this.pending;
    this.pending = [];
    if (waiting.length > 0) this.add(waiting);
  }

  private deliver(paths: string[]): void {
    if (!this.started) {
      this.pending.push(...paths);
      return;
    }
    bringToFront(this.o.window());
    if (paths.length > 0) this.add(paths);
  }

  private add(paths: string[]): void {
    this.o
      .addPaths([...new Set(paths)])
      .catch((err: unknown) => this.o.log().error({ err: describeError(err), paths }, 'adding launch paths failed'));
  }
}
