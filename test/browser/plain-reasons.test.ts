import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture } from '../fixtures/media';
import { skipBrowserTests } from '../helpers/chromium';
import { addFolderInPage, screenshotsDir, uiSession } from '../helpers/ui-app';

/** Words of ffmpeg, Node and sockets that must never be the text an editor reads on a file row. */
const RAW_WORDS = /ENOENT|ECONNREFUSED|EACCES|moov|atom|Invalid data|partial file/i;

describe.skipIf(skipBrowserTests)(
  'a refused file says why in plain words, the raw cause under Details (Chromium, web mode)',
  () => {
    const ui = uiSession({
      prepare: async (running) => {
        await copyFixture('faststartTruncatedMp4', running.footageDir, 'A001_C003_cut.mp4');
        await copyFixture('truncatedMp4', running.footageDir, 'A001_C004_nomoov.mp4');
      },
      errorCheck: 'by-the-test',
    });

    it('lists the cut-short mp4 in Uploads with a plain reason, and opens Details on the raw message', async () => {
      await addFolderInPage(ui.page, ui.running.web.url, ui.running.footageDir);
      await ui.page.getByTestId('nav-uploads').click();
      const cut = ui.page.locator('[data-testid="file-row"][data-path$="A001_C003_cut.mp4"]');
      const noMoov = ui.page.locator('[data-testid="file-row"][data-path$="A001_C004_nomoov.mp4"]');
      await expect.poll(() => cut.getAttribute('data-status'), { timeout: 30_000, interval: 300 }).toBe('skipped');
      await expect.poll(() => noMoov.getAttribute('data-status'), { timeout: 30_000, interval: 300 }).toBe('skipped');

      const reason = (await cut.getByTestId('file-reason').textContent()) ?? '';
      expect(reason).toMatch(/^This video is cut short/);
      expect(reason).not.toMatch(RAW_WORDS);
      expect(await noMoov.getByTestId('file-reason').textContent()).toMatch(/^This video is incomplete/);
      expect(await noMoov.getByTestId('file-reason').textContent()).not.toMatch(RAW_WORDS);

      // The raw text is in the page only inside the closed disclosure until the editor opens it.
      const details = cut.getByTestId('file-reason-details');
      const raw = details.locator('code');
      expect(await raw.isVisible()).toBe(false);
      await details.locator('summary').click();
      expect(await details.evaluate((d: { open: boolean }) => d.open)).toBe(true);
      expect(await raw.isVisible()).toBe(true);
      expect(await raw.textContent()).toMatch(/^partial file: the streams declare .* but the file holds/);
      await ui.page.screenshot({ path: join(screenshotsDir, 'uploads-reason-details.png') });

      expect(ui.errors).toEqual([]);
    }, 90_000);
  },
);
