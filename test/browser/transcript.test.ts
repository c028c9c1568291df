import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { addFolderInPage, screenshotsDir, uiSession } from '../helpers/ui-app';

/** Issue 28 item 9 (e): the transcript of a file beside the player; a click on a line seeks there. */
describe.skipIf(skipBrowserTests)('transcript view (Chromium, web mode)', () => {
  const ui = uiSession({
    prepare: (running) => {
      copyFileSync(fixturePath('speechMp4'), join(running.footageDir, 'harbour-talk.mp4'));
      copyFileSync(fixturePath('phoneH264Mp4'), join(running.footageDir, 'silent.mp4'));
    },
  });
  const row = (name: string) => ui.page.locator(`[data-testid="file-row"][data-path$="/${name}"]`);
  const videoTime = () =>
    ui.page.locator('video').evaluate((v) => (v as unknown as { currentTime: number }).currentTime);

  it('lists what is said with its times, seeks to a clicked line and marks it, and says when nothing is said', async () => {
    await addFolderInPage(ui.page, ui.running.web.url, ui.running.footageDir);
    for (const name of ['harbour-talk.mp4', 'silent.mp4'])
      await expect
        .poll(() => row(name).getAttribute('data-status'), { timeout: 120_000, interval: 500 })
        .toBe('indexed');

    await row('harbour-talk.mp4').click();
    await ui.page.locator('video').waitFor();
    await ui.page.getByTestId('player-transcript-toggle').click();
    const lines = ui.page.getByTestId('transcript-line');
    await expect.poll(() => lines.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const first = lines.first();
    expect((await first.textContent())?.trim().length).toBeGreaterThan(0);
    // From near the end, a click on the first line goes back to where it starts, and marks it as the one playing.
    await ui.page.locator('video').evaluate((v) => {
      const video = v as unknown as { currentTime: number; duration: number };
      video.currentTime = Math.max(0, video.duration - 0.3);
    });
    await expect.poll(videoTime).toBeGreaterThan(1);
    const before = await videoTime();
    await first.click();
    await expect.poll(videoTime).toBeLessThan(before - 0.8);
    await expect.poll(() => first.getAttribute('aria-current')).toBe('true');
    await screenshotBothThemes(ui.page, join(screenshotsDir, '28-transcript'));

    await ui.page.keyboard.press('Escape');
    await row('silent.mp4').click();
    await ui.page.locator('video').waitFor();
    await ui.page.getByTestId('player-transcript-toggle').click();
    await expect
      .poll(() => ui.page.getByTestId('transcript-empty').textContent(), { timeout: 30_000 })
      .toBe('No speech was found in this file.');
  }, 240_000);
});
