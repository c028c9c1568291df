import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * Issue 28 items 4 and 8, as the editor did it: arrows did not move between Library rows, Escape from the player left
 * focus on the page body, Down from the search field did not reach the results, Space did not close the preview,
 * there was no list of shortcuts, "Add a folder" opened Settings, and the sort was forgotten on leaving the page.
 */
describe.skipIf(skipBrowserTests)('the keyboard, as an editor uses it (Chromium, web mode)', () => {
  const ui = uiSession({ viewport: { width: 1280, height: 800 } });
  const rows = () => ui.page.locator('[data-testid="file-row"]');
  const focused = () =>
    ui.page.evaluate(() => {
      const el = (
        globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }
      ).document.activeElement;
      return { testId: el?.getAttribute('data-testid') ?? null, path: el?.getAttribute('data-path') ?? null };
    });
  const names = ['a-harbour.mp4', 'b-harbour.mp4', 'c-harbour.mp4'];

  it('adds a folder from the first screen, moves by row with the arrows and comes back to the row from the player', async () => {
    await ui.page.goto(ui.running.web.url);
    await ui.page.getByTestId('library-empty').getByRole('button', { name: 'Add a folder' }).click();
    await ui.page.getByLabel('Paths to add').fill(ui.running.footageDir);
    await ui.page.getByRole('button', { name: 'Add', exact: true }).click();
    await ui.page.locator('[data-testid="add-results"] [data-outcome="watching"]').waitFor();
    await ui.page.keyboard.press('Escape');
    for (const n of names) copyFileSync(fixturePath('drawnTextMp4'), join(ui.running.footageDir, n));
    for (const n of names)
      await expect
        .poll(() => ui.page.locator(`[data-testid="file-row"][data-path$="/${n}"]`).getAttribute('data-status'), {
          timeout: 120_000,
          interval: 500,
        })
        .toBe('indexed');

    await ui.page.getByTestId('sort-name').click();
    await rows().first().focus();
    await ui.page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await focused()).path?.split('/').pop()).toBe('b-harbour.mp4');
    await ui.page.keyboard.press('End');
    await expect.poll(async () => (await focused()).path?.split('/').pop()).toBe('c-harbour.mp4');
    await ui.page.keyboard.press('ArrowUp');
    await expect.poll(async () => (await focused()).path?.split('/').pop()).toBe('b-harbour.mp4');
    await ui.page.keyboard.press('Shift+F10');
    await ui.page.getByTestId('menu-remove').waitFor();
    await ui.page.keyboard.press('Escape');
    await expect.poll(async () => (await focused()).path?.split('/').pop()).toBe('b-harbour.mp4');
    await ui.page.keyboard.press('Enter');
    await ui.page.getByTestId('player-video').waitFor();
    await ui.page.keyboard.press('Escape');
    await ui.page.getByTestId('player').waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused()).path?.split('/').pop()).toBe('b-harbour.mp4');

    // The sort survives leaving the page.
    await ui.page.getByTestId('nav-clips').click();
    await ui.page.getByTestId('nav-library').click();
    expect(await ui.page.getByTestId('sort-name').getAttribute('aria-sort')).toBe('ascending');
  }, 240_000);

  it('reaches the results from the search field with Down, and Space opens and closes the preview', async () => {
    await ui.page.getByTestId('nav-search').click();
    await ui.page.getByLabel('Search the library').fill('harbour');
    await ui.page.keyboard.press('Enter');
    await ui.page.getByTestId('hit-card').first().waitFor();
    expect((await focused()).testId).not.toBe('hit-card');
    await ui.page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await focused()).testId).toBe('hit-card');
    await ui.page.keyboard.press(' ');
    await ui.page.getByTestId('preview-dialog').waitFor();
    await ui.page.keyboard.press(' ');
    await ui.page.getByTestId('preview-dialog').waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused()).testId).toBe('hit-card');
  }, 60_000);

  it('lists every shortcut on ?', async () => {
    await ui.page.keyboard.press('?');
    const sheet = ui.page.getByTestId('shortcut-sheet');
    await sheet.waitFor();
    for (const words of ['K held + tap J / L', 'Go to the results', 'Move between files']) {
      expect(await sheet.textContent()).toContain(words);
    }
    await screenshotBothThemes(ui.page, join(screenshotsDir, '28-shortcuts'));
    await ui.page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  }, 30_000);
});
