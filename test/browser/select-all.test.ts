import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipBrowserTests } from '../helpers/chromium';
import { addFolderInPage, screenshotsDir, uiSession } from '../helpers/ui-app';

const FILES = 230; // more than one page of the Library's list (200 rows a request)
const name = (i: number): string => `take-${String(i).padStart(3, '0')}.mp4`;

/**
 * Issue 28 item 9: select all means every file the filter matches, not only the rows loaded, as a mail app selects
 * every conversation of a search; the selection bar's actions then reach all of them. 230 files that are not videos
 * (text named .mp4) fill the Library quickly: each is refused by its probe, none is uploaded.
 */
describe.skipIf(skipBrowserTests)('select all over a paged Library (Chromium, web mode)', () => {
  const ui = uiSession({
    viewport: { width: 1280, height: 800 },
    prepare: ({ footageDir }) => {
      for (let i = 1; i <= FILES; i++) writeFileSync(join(footageDir, name(i)), `not a video ${i}\n`);
    },
  });
  const count = () => ui.page.getByTestId('selection-count').textContent();
  const tab = (label: string) => ui.page.getByRole('tab', { name: new RegExp(`^${label}`) });
  const rows = () => ui.page.locator('[data-testid="file-row"]');
  const shot = (file: string) => ui.page.screenshot({ path: join(screenshotsDir, `${file}.png`) });

  it('selects every matching file with Ctrl/Cmd-A or the bar, keeps to the filter, and removes them all', async () => {
    await addFolderInPage(ui.page, ui.running.web.url, ui.running.footageDir);
    await expect
      .poll(() => tab('Rejected').locator('.tab-count').textContent(), { timeout: 120_000, interval: 500 })
      .toBe(String(FILES));
    await ui.page.getByTestId('sort-name').click();
    // The list holds only the rows on screen and near it.
    expect(await rows().count()).toBeLessThan(FILES);

    await rows().first().focus();
    await ui.page.keyboard.press('ControlOrMeta+a');
    await expect.poll(count).toBe(`All ${FILES} matching files are selected`);
    await shot('32-library-select-all');
    // Dropping one offers to take them all again.
    await rows()
      .nth(1)
      .click({ modifiers: ['ControlOrMeta'] });
    await expect.poll(count).toBe(`${FILES - 1} files selected`);
    await ui.page.getByTestId('select-all-matching').click();
    await expect.poll(count).toBe(`All ${FILES} matching files are selected`);

    // A filter clears the selection; select all then takes what it matches: take-100 to take-199.
    await ui.page.getByLabel('Filter by name').fill('take-1');
    await expect.poll(() => ui.page.getByTestId('selection-bar').count()).toBe(0);
    await expect.poll(() => rows().first().getAttribute('data-path')).toMatch(/take-100\.mp4$/);
    await rows().first().focus();
    await ui.page.keyboard.press('ControlOrMeta+a');
    await expect.poll(count).toBe('All 100 matching files are selected');
    await ui.page.getByLabel('Filter by name').fill('');

    // Gone from disk, every row can be forgotten: one action over all 230, most of them never loaded.
    for (let i = 1; i <= FILES; i++) rmSync(join(ui.running.footageDir, name(i)));
    await tab('Deleted locally').click();
    await expect
      .poll(() => tab('Deleted locally').locator('.tab-count').textContent(), { timeout: 60_000, interval: 500 })
      .toBe(String(FILES));
    await rows().first().focus();
    await ui.page.keyboard.press('ControlOrMeta+a');
    await expect.poll(count).toBe(`All ${FILES} matching files are selected`);
    await expect
      .poll(async () => (await ui.page.getByTestId('selection-remove').textContent())?.trim())
      .toBe('Remove…');
    await ui.page.getByTestId('selection-remove').click();
    const dialog = ui.page.getByTestId('remove-dialog');
    expect(await dialog.textContent()).toContain(`Remove ${FILES} files from the library?`);
    await ui.page.getByTestId('remove-confirm').click();
    await expect
      .poll(() => tab('Deleted locally').locator('.tab-count').textContent(), { timeout: 60_000, interval: 500 })
      .toBe('0');
  });
});
