import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { ReelsyncApp } from '../../src/main/app';
import { createLogger } from '../../src/main/log';
import { rendererBuildDir } from '../../src/main/paths';
import { startWebServer, type WebServer } from '../../src/main/web/server';
import { fixturePath } from '../fixtures/media';
import { launchChromium, openWatchedPage } from './chromium';
import { tempDir } from './temp';
import { lavfi } from '../fixtures/generated-clips';

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/** Where the browser tests leave their screenshots. */
export const screenshotsDir = join(import.meta.dirname, '../../test-artifacts/screenshots');

export interface RunningUiApp {
  app: ReelsyncApp;
  web: WebServer;
  dataDir: string;
  /** A folder to watch, created empty. */
  footageDir: string;
  stop(): Promise<void>;
}

/** The app as `npm run web` runs it: the embedded library service started from the saved settings, in a temp data folder. */
export async function startUiApp(): Promise<RunningUiApp> {
  const { dir, cleanup } = await tempDir('reelsync-ui-');
  const dataDir = join(dir, 'data');
  const footageDir = join(dir, 'footage');
  await mkdir(footageDir, { recursive: true });
  const app = new ReelsyncApp({ dataDir, mode: 'web', connect: true, logger: createLogger('test') });
  await app.start();
  const web = await startWebServer({ app, rendererDir: rendererBuildDir });
  return {
    app,
    web,
    dataDir,
    footageDir,
    stop: async () => {
      await web.close();
      await app.stop();
      await cleanup();
    },
  };
}

export interface UiSession {
  readonly running: RunningUiApp;
  readonly browser: Browser;
  /** The watched page (see openWatchedPage): its script errors, console errors and CSP violations go to `errors`. */
  readonly page: Page;
  readonly errors: string[];
}

export interface UiSessionOptions {
  /** Runs once the app is started, before the browser opens: footage to put in place, folders to add. */
  prepare?: (running: RunningUiApp) => Promise<void> | void;
  /** The page's size when it is not openWatchedPage's 1280x800. */
  viewport?: { width: number; height: number };
  /** Runs after the browser and the app are closed: what `prepare` changed outside the app (the environment). */
  after?: () => void;
  /**
   * 'each-step' (the default): an error of the page fails the step it happened in. 'by-the-test': the file checks
   * `errors` itself where it wants.
   */
  errorCheck?: 'each-step' | 'by-the-test';
}

/**
 * One browser test file's session: the app as `npm run web` runs it (startUiApp), Chromium and one watched page,
 * with the hooks that start them before the first step and close them after the last. Its fields are there from the
 * first step on.
 */
export function uiSession(o: UiSessionOptions = {}): UiSession {
  let running: RunningUiApp | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  const errors: string[] = [];
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`uiSession: the ${what} is not started (used outside a step?)`);
    return value;
  };

  beforeAll(async () => {
    await mkdir(screenshotsDir, { recursive: true });
    running = await startUiApp();
    await o.prepare?.(running);
    browser = await launchChromium();
    page = await openWatchedPage(browser, errors);
    if (o.viewport) await page.setViewportSize(o.viewport);
  });
  if ((o.errorCheck ?? 'each-step') === 'each-step')
    afterEach(() => {
      // Any console error, script error or CSP violation in a step fails it.
      expect(errors.splice(0)).toEqual([]);
    });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    o.after?.();
  });

  return {
    get running() {
      return started(running, 'app');
    },
    get browser() {
      return started(browser, 'browser');
    },
    get page() {
      return started(page, 'page');
    },
    errors,
  };
}

/** The drawn-text fixture after `leadSeconds` of black: the words appear only from that time on. */
export function makeLateTextVideo(out: string, leadSeconds: number): void {
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...lavfi(`color=black:s=1280x720:d=${leadSeconds}:r=25`),
    '-i',
    fixturePath('drawnTextMp4'),
    '-filter_complex',
    '[0:v][1:v]concat=n=2:v=1:a=0[v]',
    '-map',
    '[v]',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-preset',
    'veryfast',
    out,
  ]);
}

/** From the empty library: "Add footage", type the folder's path, add it, and close the dialog once it is watched. */
export async function addFolderInPage(page: Page, url: string, folder: string): Promise<void> {
  await page.goto(url);
  await page.getByTestId('library-empty').waitFor();
  await page.getByTestId('add-footage').click();
  await addInOpenDialog(page, folder);
}

/** In the open "Add footage" dialog: type the path, add it, and close the dialog once it is watched. */
async function addInOpenDialog(page: Page, path: string): Promise<void> {
  await page.getByLabel('Paths to add').fill(path);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.locator('[data-testid="add-results"] [data-outcome="watching"]').waitFor();
  await page.keyboard.press('Escape');
}

/** From Settings: "Add folder or file…", type the path, add it, and close the dialog once it is watched. */
export async function addFromSettings(page: Page, path: string): Promise<void> {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-add-footage').click();
  await addInOpenDialog(page, path);
}

/** A video of any frame size and rate with `text` drawn large in the middle (what OCR indexes), for non-16:9 footage. */
export function makeTitledVideo(
  out: string,
  o: { width: number; height: number; fps: number; seconds: number; text: string; fontSize: number },
): void {
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...lavfi(`color=c=0x1c2b3a:s=${o.width}x${o.height}:d=${o.seconds}:r=${o.fps}`),
    '-vf',
    `drawbox=x=0:y=0:w=iw:h=ih:color=0xd08040:t=12,drawtext=fontfile=${FONT}:text='${o.text}':fontcolor=white:fontsize=${o.fontSize}:x=(w-text_w)/2:y=(h-text_h)/2`,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-preset',
    'veryfast',
    out,
  ]);
}
