import type { AppUpdater } from 'electron-updater';
import { z } from 'zod';
import { describeError, unreachable } from '../../shared/errors';
import type { Logger } from '../log';

/** The parts of electron-updater's autoUpdater Reelsync uses (injected, so tests drive it with no network). */
export type Updater = Pick<
  AppUpdater,
  'setFeedURL' | 'checkForUpdates' | 'quitAndInstall' | 'autoDownload' | 'autoInstallOnAppQuit' | 'logger'
> & {
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
};

/**
 * Where updates come from: REELSYNC_UPDATE_URL at run time (a `generic` electron-updater feed: the folder holding
 * latest.yml and the installers), else the feed `npm run dist` baked into the package (resources/app-update.yml, when
 * the build had the URL), else off.
 */
export type UpdateFeed = { kind: 'url'; url: string } | { kind: 'built-in' } | { kind: 'off'; reason: string };

const feedUrl = z.url({ protocol: /^https?$/ }).max(2000);

export const UPDATES_OFF =
  'Updates are not configured: set REELSYNC_UPDATE_URL to the address of an update feed (a folder with latest.yml).';

export function updateFeed(envUrl: string | undefined, builtInConfig: boolean): UpdateFeed {
  if (envUrl !== undefined && envUrl.trim() !== '') {
    const parsed = feedUrl.safeParse(envUrl.trim());
    return parsed.success
      ? { kind: 'url', url: parsed.data }
      : { kind: 'off', reason: `REELSYNC_UPDATE_URL is not an http(s) address: ${envUrl}` };
  }
  return builtInConfig ? { kind: 'built-in' } : { kind: 'off', reason: UPDATES_OFF };
}

export type CheckOutcome =
  | { kind: 'not-configured'; reason: string }
  /** electron-updater only checks a packaged app (it has no installer to replace otherwise). */
  | { kind: 'not-packaged' }
  | { kind: 'available'; version: string }
  | { kind: 'up-to-date'; version: string }
  | { kind: 'failed'; error: string };

/** What the "Check for Updates…" dialog says. */
export function describeOutcome(o: CheckOutcome): { title: string; detail: string } {
  switch (o.kind) {
    case 'not-configured':
      return { title: 'Updates are not configured', detail: o.reason };
    case 'not-packaged':
      return {
        title: 'Updates work in the installed app',
        detail: 'This copy runs from a development folder: update it with git instead.',
      };
    case 'available':
      return {
        title: `Reelsync ${o.version} is available`,
        detail: 'It is downloading now; you will be asked to restart when it is ready.',
      };
    case 'up-to-date':
      return { title: 'Reelsync is up to date', detail: `You have the latest version, ${o.version}.` };
    case 'failed':
      return { title: 'Could not check for updates', detail: o.error };
    default:
      throw unreachable(o);
  }
}

export interface UpdateServiceOptions {
  feed: UpdateFeed;
  /** Loads electron-updater's autoUpdater; only called when a feed is configured. */
  load: () => Promise<Updater>;
  currentVersion: string;
  /** An update finished downloading: true restarts into it now (otherwise it installs when the app quits). */
  onDownloaded: (version: string) => Promise<boolean>;
  log: Logger;
}

/** Checks a generic update feed with electron-updater, downloads what it finds and offers a restart. */
export class UpdateService {
  private updater: Promise<Updater> | undefined;

  constructor(private readonly o: UpdateServiceOptions) {}

  get configured(): boolean {
    return this.o.feed.kind !== 'off';
  }

  async check(): Promise<CheckOutcome> {
    const feed = this.o.feed;
    if (feed.kind === 'off') return { kind: 'not-configured', reason: feed.reason };
    try {
      const updater = await (this.updater ??= this.setUp(feed).catch((err: unknown) => {
        this.updater = undefined;
        throw err;
      }));
      const result = await updater.checkForUpdates();
      if (!result) return { kind: 'not-packaged' };
      return result.isUpdateAvailable
        ? { kind: 'available', version: result.updateInfo.version }
        : { kind: 'up-to-date', version: this.o.currentVersion };
    } catch (err) {
      this.o.log.warn({ err: describeError(err) }, 'update check failed');
      return { kind: 'failed', error: describeError(err) };
    }
  }

  private async setUp(feed: Exclude<UpdateFeed, { kind: 'off' }>): Promise<Updater> {
    const updater = await this.o.load();
    const log = this.o.log;
    updater.logger = {
      info: (m: unknown) => log.info(String(m)),
      warn: (m: unknown) => log.warn(String(m)),
      error: (m: unknown) => log.error(String(m)),
    };
    if (feed.kind === 'url') updater.setFeedURL({ provider: 'generic', url: feed.url });
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = true;
    updater.on('error', (err) => log.warn({ err: describeError(err) }, 'updater error'));
    updater.on('update-downloaded', (info) => {
      log.info({ version: info.version }, 'update downloaded');
      void this.o.onDownloaded(info.version).then(
        (restart) => restart && updater.quitAndInstall(),
        (err: unknown) => log.error({ err: describeError(err) }, 'update prompt failed'),
      );
    });
    return updater;
  }
}
