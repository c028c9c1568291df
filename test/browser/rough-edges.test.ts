import { copyFileSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { addFolderInPage, screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * Issue 28 item 8, rough edges an editor met: "paths.0: an absolute path is required", "6/10 searchable" counting
 * rejected files, and the save dialog naming "Reelsync's clips folder" while clips went to the one chosen in Settings.
 */
describe.skipIf(skipBrowserTests)('rough edges of a real run (Chromium, web mode)', () => {
  const ui = uiSession({ viewport: { width: 1280, height: 800 } });
  const row = (name: string) => ui.page.locator(`[data-testid="file-row"][data-path$="/${name}"]`);

  it('counts only what can become searchable, and refuses a relative output folder in plain words', async () => {
    await addFolderInPage(ui.page, ui.running.web.url, ui.running.footageDir);
    copyFileSync(fixturePath('drawnTextMp4'), join(ui.running.footageDir, 'title.mp4'));
    copyFileSync(fixturePath('notVideoMp4'), join(ui.running.footageDir, 'notes.mp4'));
    await expect
      .poll(() => row('title.mp4').getAttribute('data-status'), { timeout: 120_000, interval: 500 })
      .toBe('indexed');
    await expect.poll(() => row('notes.mp4').getAttribute('data-status'), { timeout: 30_000 }).toBe('skipped');
    await expect.poll(() => ui.page.getByTestId('queue-progress').textContent()).toBe('1/1 searchable · 1 skipped');

    await ui.page.getByTestId('nav-settings').click();
    await ui.page.getByLabel('Output folder path').fill('Edits/markers');
    await ui.page.getByRole('button', { name: 'Allow folder' }).click();
    const refusal = ui.page.getByRole('alert').filter({ hasText: 'path' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('the 1st path: give the full path');
    expect(await refusal.textContent()).not.toMatch(/paths\.\d/);
    await refusal.scrollIntoViewIfNeeded();
    await screenshotBothThemes(ui.page, join(screenshotsDir, '28-relative-output-folder'));
  }, 180_000);

  it('names the clips folder chosen in Settings in the save dialog', async () => {
    const edits = join(ui.running.footageDir, '..', 'edits');
    mkdirSync(edits, { recursive: true });
    const real = realpathSync(edits);
    await ui.page.getByLabel('Output folder path').fill(real);
    await ui.page.getByRole('button', { name: 'Allow folder' }).click();
    await ui.page.getByTestId('destination-roots').getByText(real, { exact: true }).waitFor();
    await ui.page.getByLabel('Clips folder path').fill(join(real, 'clips'));
    await ui.page.getByTestId('clips-folder-save').click();
    await expect.poll(() => ui.page.getByTestId('clips-folder-path').textContent()).toBe(join(real, 'clips'));

    await ui.page.getByTestId('nav-library').click();
    await row('title.mp4').click({ button: 'right' });
    await ui.page.getByTestId('menu-save-clip').click();
    const dialog = ui.page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`Clips folder (${join(real, 'clips')})`);
    expect(await dialog.textContent()).not.toContain("Reelsync's clips folder");
    await ui.page.keyboard.press('Escape');
  }, 60_000);
});
