import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipBrowserTests } from '../helpers/chromium';
import { addFromSettings, makeTitledVideo, screenshotsDir, uiSession } from '../helpers/ui-app';

/** Issue 17 item 3 as an editor meets it: each result card says why it matched, and caption results show their frame. */
describe.skipIf(skipBrowserTests)('search results say why they matched (Chromium, embedded service)', () => {
  const ui = uiSession({
    prepare: async (running) => {
      makeTitledVideo(join(running.footageDir, 'scene-12.mp4'), {
        width: 1280,
        height: 720,
        fps: 25,
        fontSize: 96,
        seconds: 4,
        text: 'SCENE 12',
      });
    },
  });

  it('indexes a titled clip', async () => {
    await ui.page.goto(ui.running.web.url);
    await addFromSettings(ui.page, ui.running.footageDir);
    await ui.page.getByTestId('nav-library').click();
    const row = ui.page.locator('[data-testid="file-row"][data-path$="scene-12.mp4"]');
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 120_000, interval: 500 }).toBe('indexed');
  }, 180_000);

  it('shows on the card what matched: the words on screen', async () => {
    await ui.page.getByTestId('nav-search').click();
    await ui.page.getByLabel('Search the library').fill('scene');
    await ui.page.getByLabel('Search the library').press('Enter');
    const card = ui.page.getByTestId('hit-card').first();
    await expect
      .poll(() => card.getByTestId('hit-why').textContent(), { timeout: 20_000 })
      .toBe("on screen: 'SCENE 12'");
    await expect
      .poll(() => card.locator('.hit-frame img').evaluate((img: ImageLike) => img.naturalWidth), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await ui.page.screenshot({ path: join(screenshotsDir, '30-search-why.png') });
  }, 60_000);

  it('says "no match for" beside results that match only some of the words (issue 30 item 3)', async () => {
    await ui.page.getByLabel('Search the library').fill('scene crash');
    await ui.page.getByLabel('Search the library').press('Enter');
    const card = ui.page.getByTestId('hit-card').first();
    await expect
      .poll(() => card.getByTestId('hit-why').textContent(), { timeout: 20_000 })
      .toBe("on screen: 'SCENE 12'");
    const note = ui.page.getByTestId('unmatched-note');
    await expect.poll(() => note.textContent(), { timeout: 10_000 }).toMatch(/^No match for: crash\b/);
    await ui.page.screenshot({ path: join(screenshotsDir, '30-search-no-match-for.png') });
    // Every word found: no note.
    await ui.page.getByLabel('Search the library').fill('scene');
    await ui.page.getByLabel('Search the library').press('Enter');
    await expect.poll(() => note.count(), { timeout: 10_000 }).toBe(0);
  }, 60_000);

  it('gives caption results a thumbnail and a why line too', async () => {
    await ui.page.getByRole('tab', { name: 'Captions' }).click();
    const card = ui.page.getByTestId('hit-card').first();
    await expect.poll(() => card.getByTestId('hit-why').textContent(), { timeout: 20_000 }).toBe('caption: scene');
    await expect
      .poll(() => card.locator('.hit-frame img').evaluate((img: ImageLike) => img.naturalWidth), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await ui.page.screenshot({ path: join(screenshotsDir, '31-search-captions.png') });
  }, 60_000);
});

interface ImageLike {
  naturalWidth: number;
}
