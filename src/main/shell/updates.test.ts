import { EventEmitter } from 'node:events';
import type { UpdateCheckResult } from 'electron-updater';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../log';
import { describeOutcome, UPDATES_OFF, updateFeed, UpdateService, type UpdateFeed, type Updater } from './updates';

/** electron-updater's autoUpdater at its interface: a real emitter whose check answers what the test sets. */
class FakeUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  logger: Updater['logger'] = null;
  feeds: unknown[] = [];
  installs = 0;
  answer: () => Promise<UpdateCheckResult | null> = () => Promise.resolve(null);
  setFeedURL = (options: unknown): void => void this.feeds.push(options);
  checkForUpdates = (): Promise<UpdateCheckResult | null> => this.answer();
  quitAndInstall = (): void => void this.installs++;
}

const result = (version: string, isUpdateAvailable: boolean): UpdateCheckResult => ({
  isUpdateAvailable,
  updateInfo: { version, files: [], path: '', sha512: '', releaseDate: '2026-11-01T00:00:00.000Z' },
  versionInfo: { version, files: [], path: '', sha512: '', releaseDate: '2026-11-01T00:00:00.000Z' },
});

function service(feed: UpdateFeed, restart = false) {
  const updater = new FakeUpdater();
  let loads = 0;
  const prompts: string[] = [];
  const s = new UpdateService({
    feed,
    load: () => {
      loads++;
      return Promise.resolve(updater);
    },
    currentVersion: '0.1.0',
    onDownloaded: (version) => {
      prompts.push(version);
      return Promise.resolve(restart);
    },
    log: createLogger('test'),
  });
  return { s, updater, prompts, loads: () => loads };
}

describe('updates (electron-updater injected)', () => {
  it('is off without a feed: no updater is loaded and the check says how to configure one', async () => {
    expect(updateFeed(undefined, false)).toEqual({ kind: 'off', reason: UPDATES_OFF });
    expect(updateFeed('  ', false)).toEqual({ kind: 'off', reason: UPDATES_OFF });
    expect(updateFeed('file:///tmp/feed', true)).toMatchObject({
      kind: 'off',
      reason: expect.stringContaining('not an http(s) address') as string,
    });
    expect(updateFeed(undefined, true)).toEqual({ kind: 'built-in' });
    expect(updateFeed('https://updates.example/reelsync/', true)).toEqual({
      kind: 'url',
      url: 'https://updates.example/reelsync/',
    });
    const { s, loads } = service(updateFeed(undefined, false));
    expect(s.configured).toBe(false);
    const outcome = await s.check();
    expect(outcome).toEqual({ kind: 'not-configured', reason: UPDATES_OFF });
    expect(describeOutcome(outcome).title).toBe('Updates are not configured');
    expect(loads()).toBe(0);
  });

  it('checks the generic feed, reports a new version, downloads it and restarts into it when the user agrees', async () => {
    const { s, updater, prompts } = service({ kind: 'url', url: 'https://updates.example/reelsync/' }, true);
    updater.answer = () => Promise.resolve(result('0.2.0', true));
    const outcome = await s.check();
    expect(outcome).toEqual({ kind: 'available', version: '0.2.0' });
    expect(describeOutcome(outcome).title).toBe('Reelsync 0.2.0 is available');
    expect(updater.feeds).toEqual([{ provider: 'generic', url: 'https://updates.example/reelsync/' }]);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    updater.emit('update-downloaded', { version: '0.2.0' });
    await new Promise((r) => setTimeout(r, 0));
    expect(prompts).toEqual(['0.2.0']);
    expect(updater.installs).toBe(1);
    // A second check reuses the set-up updater.
    updater.answer = () => Promise.resolve(result('0.2.0', false));
    expect(await s.check()).toEqual({ kind: 'up-to-date', version: '0.1.0' });
    expect(updater.feeds).toHaveLength(1);
  });

  it('leaves the install for quit when the user says later, and uses the built-in feed as it is', async () => {
    const { s, updater } = service({ kind: 'built-in' }, false);
    updater.answer = () => Promise.resolve(result('0.3.0', true));
    await s.check();
    expect(updater.feeds).toEqual([]);
    updater.emit('update-downloaded', { version: '0.3.0' });
    await new Promise((r) => setTimeout(r, 0));
    expect(updater.installs).toBe(0);
  });

  it('reports a failed check and an unpackaged app in words', async () => {
    const { s, updater } = service({ kind: 'url', url: 'https://updates.example/' });
    updater.answer = () => Promise.reject(new Error('HttpError: 404 Not Found latest.yml'));
    const failed = await s.check();
    expect(failed).toEqual({ kind: 'failed', error: 'HttpError: 404 Not Found latest.yml' });
    expect(describeOutcome(failed).detail).toContain('404');
    updater.answer = () => Promise.resolve(null);
    expect(describeOutcome(await s.check()).title).toBe('Updates work in the installed app');
  });
});
