import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage, skipBrowserTests } from '../helpers/chromium';
import { addFromSettings, makeTitledVideo, startUiApp, type RunningUiApp } from '../helpers/ui-app';

const artifacts = join(import.meta.dirname, '../../test-artifacts/screenshots');

/** Issue 17 item 3 as an editor meets it: each result card says why it matched, and caption results show their frame. */
describe.skipIf(skipBrowserTests)('search results say why they matched (Chromium, embedded service)', () => {
  let running: RunningUiApp;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    running = await startUiApp();
    makeTitledVideo(join(running.footageDir, 'scene-12.mp4'), {
      width: 1280,
      height: 720,
      fps: 25,
      fontSize: 96,
      seconds: 4,
      text: 'SCENE 12',
    });
    browser = await launchChromium();
    page = await openWatchedPage(browser, errors);
  });
  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('indexes a titled clip', async () => {
    await page.goto(running.web.url);
    await addFromSettings(page, running.footageDir);
    await page.getByTestId('nav-library').click();
    const row = page.locator('[data-testid="file-row"][data-path$="scene-12.mp4"]');
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 120_000, interval: 500 }).toBe('indexed');
  }, 180_000);

  it('shows on the card what matched: the words on screen', async () => {
    await page.getByTestId('nav-search').click();
    await page.getByLabel('Search the library').fill('scene');
    await page.getByLabel('Search the library').press('Enter');
    const card = page.getByTestId('hit-card').first();
    await expect
      .poll(() => card.getByTestId('hit-why').textContent(), { timeout: 20_000 })
      .toBe("on screen: 'SCENE 12'");
    await expect
      .poll(() => card.locator('.hit-frame img').evaluate((img: ImageLike) => img.naturalWidth), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.screenshot({ path: join(artifacts, '30-search-why.png') });
  }, 60_000);

  it('gives caption results a thumbnail and a why line too', async () => {
    await page.getByRole('tab', { name: 'Captions' }).click();
    const card = page.getByTestId('hit-card').first();
    await expect.poll(() => card.getByTestId('hit-why').textContent(), { timeout: 20_000 }).toBe('caption: scene');
    await expect
      .poll(() => card.locator('.hit-frame img').evaluate((img: ImageLike) => img.naturalWidth), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.screenshot({ path: join(artifacts, '31-search-captions.png') });
  }, 60_000);
});

interface ImageLike {
  naturalWidth: number;
}
