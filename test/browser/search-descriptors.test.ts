import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensurePhotoClip } from '../fixtures/media';
import { skipBrowserTests } from '../helpers/chromium';
import { addFromSettings, screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * Issue 18 part 2 as an editor meets it: a query in plain words ("footage of a motorbike": filler, then a WordNet
 * synonym of the detector's label) finds the photograph, and the card names the descriptor that matched.
 */
describe.skipIf(skipBrowserTests)('search cards name the descriptors that matched (Chromium, embedded service)', () => {
  const ui = uiSession({
    prepare: async (running) => {
      // skimage's photographs (astronaut, motorcycle, coffee: 3 s each), indexed for real.
      await copyFile(await ensurePhotoClip(), join(running.footageDir, 'photos.mp4'));
    },
  });

  it('indexes the photographs', async () => {
    await ui.page.goto(ui.running.web.url);
    await addFromSettings(ui.page, ui.running.footageDir);
    await ui.page.getByTestId('nav-library').click();
    const row = ui.page.locator('[data-testid="file-row"][data-path$="photos.mp4"]');
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 240_000, interval: 500 }).toBe('indexed');
  }, 300_000);

  it('names the motorcycle (and its colour) on the card of the motorcycle for "footage of a motorbike"', async () => {
    await ui.page.getByTestId('nav-search').click();
    await ui.page.getByLabel('Search the library').fill('footage of a motorbike');
    await ui.page.getByLabel('Search the library').press('Enter');
    const card = ui.page.getByTestId('hit-card').first();
    // The photo's motorcycle is detected and coloured: both labels hold the word the query reached through WordNet.
    await expect
      .poll(() => card.getByTestId('hit-why').textContent(), { timeout: 20_000 })
      .toBe('colour: red motorcycle · seen: motorcycle');
    await expect.poll(() => card.textContent(), { timeout: 5_000 }).toContain('0:03.0');
    await expect
      .poll(() => card.locator('.hit-frame img').evaluate((img: ImageLike) => img.naturalWidth), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await ui.page.screenshot({ path: join(screenshotsDir, '32-search-descriptors.png') });
  }, 60_000);
});

interface ImageLike {
  naturalWidth: number;
}
