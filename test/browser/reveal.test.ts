import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { skipBrowserTests } from '../helpers/chromium';
import { addFolderInPage, screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * "Show in Folder" on a library file in headless web mode: the page names the file by id, main looks its path up and
 * runs the platform's opener on its own machine. Here that opener is a real `xdg-open` script first on PATH that
 * records what it was asked to open.
 */
describe.skipIf(skipBrowserTests || process.platform !== 'linux')(
  'reveal a library file from the web mode (Chromium, embedded service)',
  () => {
    const savedPath = process.env.PATH;
    let opened = '';
    let opener = '';

    const setOpener = (exitCode: number): void => {
      writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$@" > '${opened}'\nexit ${exitCode}\n`, { mode: 0o755 });
    };

    const ui = uiSession({
      prepare: async (running) => {
        const bin = join(running.dataDir, '..', 'bin');
        mkdirSync(bin);
        opened = join(bin, 'opened.txt');
        opener = join(bin, 'xdg-open');
        setOpener(0);
        process.env.PATH = `${bin}${delimiter}${savedPath ?? ''}`;
        copyFileSync(fixturePath('phoneH264Mp4'), join(running.footageDir, 'interview.mp4'));
      },
      after: () => {
        process.env.PATH = savedPath;
      },
      errorCheck: 'by-the-test',
    });

    it('opens the folder holding the file from the row context menu, and shows the path when no file manager runs', async () => {
      await addFolderInPage(ui.page, ui.running.web.url, ui.running.footageDir);

      const row = ui.page.locator('[data-testid="file-row"][data-path$="interview.mp4"]');
      await row.waitFor({ timeout: 30_000 });
      await row.click({ button: 'right' });
      const menu = ui.page.getByTestId('file-menu');
      await menu.waitFor();
      expect(await menu.textContent()).toContain('Show in Folder');
      await ui.page.screenshot({ path: join(screenshotsDir, '15-file-reveal-menu.png') });
      await menu.getByRole('menuitem', { name: 'Show in Folder' }).click();
      await expect
        .poll(() => readFileSync(opened, { encoding: 'utf8', flag: 'a+' }) || null, { timeout: 10_000 })
        .toBe(`${ui.running.footageDir}\n`);

      // A desktop with no file manager: xdg-open fails, and the page shows where the file is instead.
      rmSync(opened);
      setOpener(3);
      await row.click({ button: 'right' });
      await ui.page.getByTestId('file-menu').getByRole('menuitem', { name: 'Show in Folder' }).click();
      const toast = ui.page.locator('.toast', { hasText: 'The file is here' });
      await toast.waitFor({ timeout: 10_000 });
      expect(await toast.textContent()).toContain(join(ui.running.footageDir, 'interview.mp4'));
      await ui.page.screenshot({ path: join(screenshotsDir, '16-file-reveal-no-file-manager.png') });
      expect(ui.errors).toEqual([]);
    }, 90_000);
  },
);
