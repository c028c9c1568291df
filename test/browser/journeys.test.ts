import { copyFile, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { launchChromium, openWatchedPage, skipBrowserTests } from '../helpers/chromium';
import { addFromSettings, makeLateTextVideo, startUiApp, type RunningUiApp } from '../helpers/ui-app';

const artifacts = join(import.meta.dirname, '../../test-artifacts/screenshots');
const LEAD = 3;

/** The main journeys of a new user, in order, on one page: each step builds on the one before. */
describe.skipIf(skipBrowserTests)('journeys in headless web mode (Chromium, embedded service)', () => {
  let running: RunningUiApp;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    running = await startUiApp();
    makeLateTextVideo(join(running.footageDir, 'harbour-late.mp4'), LEAD);
    await promisify(copyFile)(fixturePath('mpeg4Avi'), join(running.footageDir, 'old-camera.avi'));
    browser = await launchChromium();
    page = await openWatchedPage(browser, errors);
  });
  afterEach(() => {
    // Any console error, script error or CSP violation in a step fails it.
    expect(errors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('starts on an empty library connected to the embedded service, token out of the address bar', async () => {
    await page.goto(running.web.url);
    await page.getByTestId('library-empty').waitFor();
    expect(await page.getByTestId('connection-state').textContent()).toContain('Connected');
    expect(await page.getByTestId('sync-state').textContent()).toContain('idle');
    expect(page.url()).not.toContain('token=');
    await page.getByTestId('nav-settings').click();
    await expect
      .poll(() => page.getByTestId('connection-detail').textContent())
      .toMatch(/^Connected to the embedded service at http:\/\/127\.0\.0\.1:\d+/);
    await page.getByTestId('nav-library').click();
    await shot('01-library-empty');
  });

  it('pauses the queue, adds a folder by path, shows the queued files, then resumes', async () => {
    await page.getByTestId('nav-uploads').click();
    await page.getByTestId('uploads-empty').waitFor();
    await page.getByTestId('queue-toggle').click();
    await page.getByTestId('paused-notice').waitFor();
    expect(await page.getByTestId('sync-state').textContent()).toContain('paused (by you)');

    await addFromSettings(page, running.footageDir);
    await page.getByTestId('folder-list').getByText(running.footageDir).waitFor();
    await shot('02-settings-folder');

    await page.getByTestId('nav-uploads').click();
    const late = page.locator('[data-testid="file-row"][data-path$="harbour-late.mp4"]');
    await late.waitFor({ timeout: 30_000 });
    // The paused queue examines and uploads nothing: the file stays waiting.
    await page.waitForTimeout(1500);
    expect(await late.getAttribute('data-status')).toBe('waiting');
    await shot('03-uploads-paused');

    await page.getByTestId('queue-toggle').click();
    await expect.poll(() => page.getByTestId('sync-state').textContent()).not.toContain('paused');
  });

  it('syncs to searchable and shows the rejected file with its reason', async () => {
    await page.getByTestId('nav-library').click();
    const late = page.locator('[data-testid="file-row"][data-path$="harbour-late.mp4"]');
    const avi = page.locator('[data-testid="file-row"][data-path$="old-camera.avi"]');
    await expect.poll(() => late.getAttribute('data-status'), { timeout: 90_000, interval: 500 }).toBe('indexed');
    expect(await late.locator('.badge').first().textContent()).toBe('Searchable');
    await expect.poll(() => avi.getAttribute('data-status'), { timeout: 30_000 }).toBe('skipped');
    expect(await avi.getByTestId('file-reason').textContent()).toMatch(/codec/i);
    expect(await page.getByTestId('count-search').textContent()).toBe('1');
    await shot('04-library-synced');
    await page.getByRole('tab', { name: /Rejected/ }).click();
    await avi.waitFor();
    expect(await page.locator('[data-testid="file-row"]').count()).toBe(1);
    await shot('05-library-rejected');
  }, 150_000);

  it('finds the drawn words and opens the player at the matched time', async () => {
    await page.getByTestId('nav-search').click();
    await page.getByTestId('search-empty').waitFor();
    await page.getByLabel('Search the library').fill('harbour');
    await page.keyboard.press('Enter');
    const card = page.getByTestId('hit-card').first();
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getAttribute('aria-selected')).toBe('true');
    await expect
      .poll(() => card.locator('img').evaluate((img: ImageLike) => img.complete && img.naturalWidth > 0), {
        timeout: 10_000,
      })
      .toBe(true);
    const range = (await card.locator('.hit-time').textContent()) ?? '';
    const start = parseClock(range.split('–')[0] ?? '');
    expect(start).toBeGreaterThanOrEqual(LEAD - 1);
    await shot('06-search-results');

    await card.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('player').waitFor();
    const video = page.getByTestId('player-video');
    await expect
      .poll(() => video.evaluate((v: VideoLike) => ({ ready: v.readyState >= 1, t: v.currentTime })), {
        timeout: 15_000,
      })
      .toMatchObject({ ready: true });
    const t = await video.evaluate((v: VideoLike) => {
      v.pause();
      return v.currentTime;
    });
    expect(t).toBeGreaterThanOrEqual(start - 0.01);
    expect(t).toBeLessThan(start + 2);
    expect(await page.getByTestId('timeline-range').count()).toBeGreaterThan(0);
    await page.keyboard.press('i');
    await expect.poll(() => page.getByTestId('in-out').textContent()).toMatch(/^In \d{2}:\d{2}:\d{2}:\d{2} /);
    await shot('07-player');
  }, 90_000);

  it('serves media only from watched folders, with ranges, and only with the session token', async () => {
    const base = running.web.origin;
    const inside = join(running.footageDir, 'harbour-late.mp4');
    const q = (path: string, token = running.web.token) =>
      `${base}/api/media/file?path=${encodeURIComponent(path)}&token=${token}`;
    const ranged = await fetch(q(inside), { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toMatch(/^bytes 0-99\/\d+$/);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
    expect((await fetch(q(fixturePath('phoneH264Mp4')))).status).toBe(403);
    expect((await fetch(q(join(running.footageDir, '..', 'data', 'reelsync.db')))).status).toBe(403);
    expect((await fetch(q(inside, 'wrong'))).status).toBe(401);
  });
});

/** The few DOM members the page functions read (the node tsconfig has no DOM lib). */
interface ImageLike {
  complete: boolean;
  naturalWidth: number;
}
interface VideoLike {
  readyState: number;
  currentTime: number;
  pause(): void;
}

function parseClock(text: string): number {
  const parts = text.trim().split(':').map(Number);
  return parts.reduce((acc, p) => acc * 60 + p, 0);
}
