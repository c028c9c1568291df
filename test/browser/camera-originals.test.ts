import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cameraOriginalPath } from '../fixtures/camera-originals';
import { ensureClip } from '../fixtures/generated-clips';
import { PRORES_HQ_1080_TAKE } from '../fixtures/test-clips';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { addFolderInPage, screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * Issue 26 as an editor meets it: a ProRes camera original (which the library refuses and a browser cannot play) is
 * searchable through its proxy, and the player plays the proxy, says so, and shows the original's source timecode.
 */
describe.skipIf(skipBrowserTests)('a camera original in the app (Chromium, web mode)', () => {
  const ui = uiSession({
    viewport: { width: 1280, height: 800 },
    // Keep the proxy after indexing: it is what the player plays (the ProRes original does not play in Chromium).
    prepare: async (running) => {
      const set = await running.app.registry.invoke('settings:set', { proxy: { keep: true } });
      expect(set.ok).toBe(true);
    },
  });
  const row = (name: string) => ui.page.locator(`[data-testid="file-row"][data-path$="/${name}"]`);

  it('indexes a ProRes original through its proxy and plays the proxy with the source timecode', async () => {
    await addFolderInPage(ui.page, ui.running.web.url, ui.running.footageDir);
    copyFileSync(cameraOriginalPath('proresMov'), join(ui.running.footageDir, 'A001C003.mov'));
    await expect
      .poll(() => row('A001C003.mov').getAttribute('data-status'), { timeout: 180_000, interval: 500 })
      .toBe('indexed');
    await screenshotBothThemes(ui.page, join(screenshotsDir, '26-camera-original-library'));

    await row('A001C003.mov').focus();
    await ui.page.keyboard.press('Enter');
    await ui.page.getByTestId('player-video').waitFor();
    await expect.poll(() => ui.page.getByTestId('player-playing').textContent(), { timeout: 15_000 }).toBe('Proxy');
    const src = (await ui.page.getByTestId('player-video').getAttribute('src')) ?? '';
    expect(decodeURIComponent(src)).toMatch(/\/proxies\/.*A001C003\.mp4/);
    // The original's own timecode (01:00:00:00 at its first frame), not the proxy's position.
    await expect
      .poll(() => ui.page.getByTestId('player-source-tc').textContent(), { timeout: 15_000 })
      .toMatch(/^01:00:0\d:\d\d$/);
    expect(await ui.page.getByTestId('player-source').textContent()).toContain('A001');
    await screenshotBothThemes(ui.page, join(screenshotsDir, '26-camera-original-player'));
  }, 240_000);

  it('shows the proxy being made in Uploads, with its percent, speed and time left', async () => {
    // A take long enough to watch its proxy being made: 10 s of 1080p25 ProRes 422 HQ, from the media cache.
    const take = await ensureClip(PRORES_HQ_1080_TAKE);
    await ui.page.getByTestId('nav-uploads').click();
    copyFileSync(take, join(ui.running.footageDir, 'B001C002.mov'));
    const bar = ui.page.getByTestId('proxy-progress');
    await bar.waitFor({ timeout: 60_000 });
    await expect
      .poll(() => bar.textContent(), { timeout: 30_000, interval: 100 })
      .toMatch(/^Proxy \d+% · \d+\.\d× real time · /);
    await screenshotBothThemes(ui.page, join(screenshotsDir, '26-proxy-progress'));
    await ui.page.getByTestId('nav-library').click();
    await expect
      .poll(() => row('B001C002.mov').getAttribute('data-status'), { timeout: 180_000, interval: 500 })
      .toBe('indexed');
  }, 300_000);
});
