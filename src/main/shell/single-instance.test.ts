import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { createLogger } from '../log';
import { launchPaths, SingleInstance, type InstanceWindow } from './single-instance';

/** Electron's app as the lock sees it: a real event emitter, and a lock that is free or held by another instance. */
class FakeApp extends EventEmitter {
  constructor(private readonly lockFree: boolean) {
    super();
  }
  requestSingleInstanceLock = (): boolean => this.lockFree;
}

/** A window that records what was done to it. */
function fakeWindow(minimized: boolean): InstanceWindow & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    isMinimized: () => minimized,
    restore: () => calls.push('restore'),
    show: () => calls.push('show'),
    focus: () => calls.push('focus'),
  };
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-instance-'));
  await mkdir(join(dir, 'Day 1'));
  await mkdir(join(dir, 'Day 2'));
});
afterEach(async () => cleanup());

function setup(lockFree = true, minimized = true) {
  const app = new FakeApp(lockFree);
  const win = fakeWindow(minimized);
  const added: string[][] = [];
  const instance = new SingleInstance(app, {
    window: () => win,
    addPaths: (paths) => {
      added.push(paths);
      return Promise.resolve();
    },
    log: () => createLogger('test'),
    skipArgs: 1,
  });
  return { app, win, added, instance };
}

describe('single instance (electron mocked)', () => {
  it('a second launch restores and focuses the first window and hands it the folders it was given', () => {
    const { app, win, added, instance } = setup();
    expect(instance.claim(['/opt/Reelsync/reelsync'], dir)).toBe(true);
    instance.ready();
    app.emit(
      'second-instance',
      {},
      ['/opt/Reelsync/reelsync', '--allow-file-access-from-files', 'Day 1', join(dir, 'Day 2'), join(dir, 'missing')],
      dir,
    );
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
    expect(added).toEqual([[join(dir, 'Day 1'), join(dir, 'Day 2')]]);
    // A plain second launch (from the dock or start menu) only focuses.
    app.emit('second-instance', {}, ['/opt/Reelsync/reelsync'], dir);
    expect(added).toHaveLength(1);
    expect(win.calls).toHaveLength(6);
  });

  it('does not restore a window that is not minimised', () => {
    const { app, win, instance } = setup(true, false);
    instance.claim(['reelsync'], dir);
    instance.ready();
    app.emit('second-instance', {}, ['reelsync'], dir);
    expect(win.calls).toEqual(['show', 'focus']);
  });

  it('keeps its own launch folders and early macOS open-file events until the app is ready', () => {
    const { app, win, added, instance } = setup();
    instance.claim(['/Applications/Reelsync.app/Contents/MacOS/Reelsync', join(dir, 'Day 1')], '/');
    let prevented = false;
    app.emit('open-file', { preventDefault: () => (prevented = true) }, join(dir, 'Day 2'));
    expect(prevented).toBe(true);
    expect(added).toEqual([]);
    expect(win.calls).toEqual([]);
    instance.ready();
    expect(added).toEqual([[join(dir, 'Day 1'), join(dir, 'Day 2')]]);
  });

  it('the second instance itself gets no lock and registers nothing', () => {
    const { app, instance } = setup(false);
    expect(instance.claim(['reelsync', join(dir, 'Day 1')], dir)).toBe(false);
    expect(app.listenerCount('second-instance')).toBe(0);
    expect(app.listenerCount('open-file')).toBe(0);
  });

  it('skips the app folder when Electron runs unpackaged', () => {
    expect(launchPaths(['/usr/lib/electron/electron', dir, join(dir, 'Day 1')], '/', 2)).toEqual([join(dir, 'Day 1')]);
    expect(launchPaths(['electron', '.', '--inspect', 'Day 2', 'Day 2'], dir, 2)).toEqual([join(dir, 'Day 2')]);
  });
});
