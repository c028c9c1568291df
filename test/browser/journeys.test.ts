import { copyFile } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { skipBrowserTests } from '../helpers/chromium';
import { addFromSettings, makeLateTextVideo, screenshotsDir, uiSession } from '../helpers/ui-app';

const LEAD = 3;

/** The main journeys of a new user, in order, on one page: each step builds on the one before. */
describe.skipIf(skipBrowserTests)('journeys in headless web mode (Chromium, embedded service)', () => {
  const ui = uiSession({
    prepare: async (running) => {
      makeLateTextVideo(join(running.footageDir, 'harbour-late.mp4'), LEAD);
      // Camera raw that ffmpeg cannot decode: rejected with a reason naming RED's tool (an old codec gets a proxy).
      await promisify(copyFile)(fixturePath('notVideoMp4'), join(running.footageDir, 'A002C001.R3D'));
    },
  });
  const shot = (name: string) => ui.page.screenshot({ path: join(screenshotsDir, `${name}.png`) });

  it('starts on an empty library connected to the embedded service, token out of the address bar', async () => {
    await ui.page.goto(ui.running.web.url);
    await ui.page.getByTestId('library-empty').waitFor();
    expect(await ui.page.getByTestId('connection-state').textContent()).toContain('Connected');
    expect(await ui.page.getByTestId('sync-state').textContent()).toContain('idle');
    expect(ui.page.url()).not.toContain('token=');
    await ui.page.getByTestId('nav-settings').click();
    await expect
      .poll(() => ui.page.getByTestId('connection-detail').textContent())
      .toMatch(/^Connected to the embedded service at http:\/\/127\.0\.0\.1:\d+/);
    await ui.page.getByTestId('nav-library').click();
    await shot('01-library-empty');
  });

  it('pauses the queue, adds a folder by path, shows the queued files, then resumes', async () => {
    await ui.page.getByTestId('nav-uploads').click();
    await ui.page.getByTestId('uploads-empty').waitFor();
    await ui.page.getByTestId('queue-toggle').click();
    await ui.page.getByTestId('paused-notice').waitFor();
    expect(await ui.page.getByTestId('sync-state').textContent()).toContain('paused (by you)');

    await addFromSettings(ui.page, ui.running.footageDir);
    await ui.page.getByTestId('folder-list').getByText(ui.running.footageDir).waitFor();
    await shot('02-settings-folder');

    await ui.page.getByTestId('nav-uploads').click();
    const late = ui.page.locator('[data-testid="file-row"][data-path$="harbour-late.mp4"]');
    await late.waitFor({ timeout: 30_000 });
    // The paused queue examines and uploads nothing: the file stays waiting.
    await ui.page.waitForTimeout(1500);
    expect(await late.getAttribute('data-status')).toBe('waiting');
    await shot('03-uploads-paused');

    await ui.page.getByTestId('queue-toggle').click();
    await expect.poll(() => ui.page.getByTestId('sync-state').textContent()).not.toContain('paused');
  });

  it('syncs to searchable and shows the rejected file with its reason', async () => {
    await ui.page.getByTestId('nav-library').click();
    const late = ui.page.locator('[data-testid="file-row"][data-path$="harbour-late.mp4"]');
    const avi = ui.page.locator('[data-testid="file-row"][data-path$="A002C001.R3D"]');
    await expect.poll(() => late.getAttribute('data-status'), { timeout: 90_000, interval: 500 }).toBe('indexed');
    expect(await late.locator('.badge').first().textContent()).toBe('Searchable');
    await expect.poll(() => avi.getAttribute('data-status'), { timeout: 30_000 }).toBe('skipped');
    expect(await avi.getByTestId('file-reason').textContent()).toMatch(/RED R3D.*REDCINE-X/);
    expect(await ui.page.getByTestId('count-search').textContent()).toBe('1');
    await shot('04-library-synced');
    await ui.page.getByRole('tab', { name: /Rejected/ }).click();
    await avi.waitFor();
    expect(await ui.page.locator('[data-testid="file-row"]').count()).toBe(1);
    await shot('05-library-rejected');
  }, 150_000);

  it('finds the drawn words and opens the player at the matched time', async () => {
    await ui.page.getByTestId('nav-search').click();
    await ui.page.getByTestId('search-empty').waitFor();
    await ui.page.getByLabel('Search the library').fill('harbour');
    await ui.page.keyboard.press('Enter');
    const card = ui.page.getByTestId('hit-card').first();
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
    await ui.page.keyboard.press('Enter');
    await ui.page.getByTestId('player').waitFor();
    const video = ui.page.getByTestId('player-video');
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
    expect(await ui.page.getByTestId('timeline-range').count()).toBeGreaterThan(0);
    await ui.page.keyboard.press('i');
    await expect.poll(() => ui.page.getByTestId('in-out').textContent()).toMatch(/^In \d{2}:\d{2}:\d{2}:\d{2} /);
    await shot('07-player');
  }, 90_000);

  it('serves media only from watched folders, with ranges, and only with the session token', async () => {
    const base = ui.running.web.origin;
    const inside = join(ui.running.footageDir, 'harbour-late.mp4');
    const q = (path: string, token = ui.running.web.token) =>
      `${base}/api/media/file?path=${encodeURIComponent(path)}&token=${token}`;
    const ranged = await fetch(q(inside), { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toMatch(/^bytes 0-99\/\d+$/);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
    expect((await fetch(q(fixturePath('phoneH264Mp4')))).status).toBe(403);
    expect((await fetch(q(join(ui.running.footageDir, '..', 'data', 'reelsync.db')))).status).toBe(403);
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
