import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensurePhotoClip } from '../fixtures/media';
import { launchChromium, openWatchedPage, skipBrowserTests } from '../helpers/chromium';
import { addFromSettings, startUiApp, type RunningUiApp } from '../helpers/ui-app';

const artifacts = join(import.meta.dirname, '../../test-artifacts/screenshots');

/**
 * Issue 18 part 2 as an editor meets it: a query in plain words ("footage of a motorbike": filler, then a WordNet
 * synonym of the detector's label) finds the photograph, and the card names the descriptor that matched.
 */
describe.skipIf(skipBrowserTests)('search cards name the descriptors that matched (Chromium, embedded service)', () => {
  let running: RunningUiApp;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    await mkdir(artifacts, { recursive: true });
    running = await startUiApp();
    // skimage's photographs (astronaut, motorcycle, coffee: 3 s each), indexed for real.
    await copyFile(await ensurePhotoClip(), join(running.footageDir, 'photos.mp4'));
    browser = await launchChromium();
    page = await openWatchedPage(browser, errors);
  }, 120_000);
  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('indexes the photographs', async () => {
    await page.goto(running.web.url);
    await addFromSettings(page, running.footageDir);
    await page.getByTestId('nav-library').click();
    const row = page.locator('[data-testid="file-row"][data-path$="photos.mp4"]');
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 240_000, interval: 500 }).toBe('indexed');
  }, 300_000);

  it('shows "seen: motorcycle" on the card of the motorcycle for "footage of a motorbike"', async () => {
    await page.getByTestId('nav-search').click();
    await page.getByLabel('Search the library').fill('footage of a motorbike');
    await page.getByLabel('Search the library').press('Enter');
    const card = page.getByTestId('hit-card').first();
    await expect.poll(() => card.getByTestId('hit-why').textContent(), { timeout: 20_000 }).toBe('seen: motorcycle');
    await expect.poll(() => card.textContent(), { timeout: 5_000 }).toContain('0:03.0');
    await expect
      .poll(() => card.locator('.hit-frame img').evaluate((img: ImageLike) => img.naturalWidth), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.screenshot({ path: join(artifacts, '32-search-descriptors.png') });
  }, 60_000);
});

interface ImageLike {
  naturalWidth: number;
}
