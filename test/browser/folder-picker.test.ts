import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * Issue 28 item 9, the web mode's folder picker, as the editor does it: "Add footage", "Choose folder…", walk from
 * the disk's root to the shoot by clicking (and with the keys), choose it, and see it watched with its files listed.
 * A folder that vanished while the picker showed it is answered in words, and the picker stays where it was.
 */
describe.skipIf(skipBrowserTests)('folder picker (Chromium, web mode)', () => {
  const ui = uiSession({
    viewport: { width: 1280, height: 800 },
    prepare: ({ footageDir }) => {
      mkdirSync(join(footageDir, 'Day 1'));
      mkdirSync(join(footageDir, 'Day 2'));
      mkdirSync(join(footageDir, '.proxies'));
      copyFileSync(fixturePath('phoneH264Mp4'), join(footageDir, 'Day 1', 'harbour.mp4'));
    },
  });
  const picker = () => ui.page.getByTestId('folder-picker');
  const option = (name: string) => picker().getByRole('option', { name, exact: true });
  const current = () => picker().locator('[aria-current="location"]').textContent();
  const names = () => picker().getByTestId('folder-option').allTextContents();
  const shot = (name: string): Promise<void> => screenshotBothThemes(ui.page, join(screenshotsDir, name));

  it('walks from the root to the shoot by clicking, chooses it, and sees it watched with its files', async () => {
    const footage = ui.running.footageDir;
    await ui.page.goto(ui.running.web.url);
    await ui.page.getByTestId('library-empty').waitFor();
    await ui.page.getByTestId('add-footage').click();
    await ui.page.getByTestId('choose-folder').click();
    await picker().waitFor();
    // It opens at home; the places offer the disk's root.
    await expect.poll(current).toBe(basename(process.env.HOME ?? '/root'));
    await picker().getByRole('list', { name: 'Places' }).getByRole('button', { name: 'Computer' }).click();
    await expect.poll(current).toBe('Computer');
    // Down the folders, one double-click each, from / to the footage folder.
    for (const step of dirname(footage).split('/').filter(Boolean)) {
      await option(step).dblclick();
      await expect.poll(current).toBe(step);
    }
    await option('footage').dblclick();
    await expect.poll(current).toBe('footage');
    // Folders only, sorted; the hidden one only when asked.
    expect(await names()).toEqual(['Day 1', 'Day 2']);
    await picker().getByLabel('Hidden folders').check();
    await expect.poll(names).toEqual(['.proxies', 'Day 1', 'Day 2']);
    await picker().getByLabel('Hidden folders').uncheck();
    await expect.poll(names).toEqual(['Day 1', 'Day 2']);
    await shot('folder-picker-footage');

    // The keys: Down, Up, Enter opens, Backspace goes up; the breadcrumbs go back anywhere.
    await picker().getByTestId('folder-list').focus();
    await ui.page.keyboard.press('ArrowDown');
    expect(await option('Day 2').getAttribute('aria-selected')).toBe('true');
    await ui.page.keyboard.press('ArrowUp');
    await ui.page.keyboard.press('Enter');
    await expect.poll(current).toBe('Day 1');
    expect(await picker().getByTestId('folder-path').inputValue()).toBe(join(footage, 'Day 1'));
    await ui.page.keyboard.press('Backspace');
    await expect.poll(current).toBe('footage');
    await picker()
      .getByRole('button', { name: basename(dirname(footage)), exact: true })
      .click();
    await expect.poll(current).toBe(basename(dirname(footage)));

    // A typed path that is wrong says so and the picker stays; a right one goes there.
    await picker().getByTestId('folder-path').fill(join(footage, 'Day 9'));
    await picker().getByTestId('folder-path').press('Enter');
    await expect
      .poll(() => picker().getByTestId('folder-picker-error').textContent())
      .toContain(`There is no folder ${join(footage, 'Day 9')}`);
    await shot('folder-picker-typed-wrong');
    expect(await current()).toBe(basename(dirname(footage)));
    await picker().getByTestId('folder-path').fill(footage);
    await picker().getByTestId('folder-path').press('Enter');
    await expect.poll(current).toBe('footage');
    await expect.poll(() => picker().getByTestId('folder-picker-error').count()).toBe(0);

    await option('Day 1').dblclick();
    await expect.poll(current).toBe('Day 1');
    await picker().getByTestId('folder-choose').click();
    await picker().waitFor({ state: 'detached' });
    // Added the way a typed path is: answered in the Add footage dialog, then watched with its files listed.
    const added = ui.page.locator('[data-testid="add-results"] [data-outcome="watching"]');
    await added.waitFor();
    expect(await added.textContent()).toContain(join(footage, 'Day 1'));
    await shot('folder-picker-added');
    await ui.page.keyboard.press('Escape');
    await ui.page.getByRole('list', { name: 'Watched folders' }).getByText(join(footage, 'Day 1')).waitFor();
    await ui.page.locator('[data-testid="file-row"][data-path$="/Day 1/harbour.mp4"]').waitFor({ timeout: 30_000 });
  });

  it('answers a folder that vanished in words, stays where it was, and closes on Escape', async () => {
    const footage = ui.running.footageDir;
    await ui.page.getByTestId('add-footage').click();
    await ui.page.getByTestId('choose-folder').click();
    // As the editor does: the picker shows home first, then they type where to go.
    await expect.poll(current).toBe(basename(process.env.HOME ?? '/root'));
    await picker().getByTestId('folder-path').fill(footage);
    await picker().getByTestId('folder-path').press('Enter');
    await expect.poll(current).toBe('footage');
    rmSync(join(footage, 'Day 2'), { recursive: true });
    await option('Day 2').dblclick();
    await expect
      .poll(() => picker().getByTestId('folder-picker-error').textContent())
      .toBe(`There is no folder ${join(footage, 'Day 2')} (it may have been moved, renamed or removed)`);
    expect(await current()).toBe('footage');
    await expect.poll(names).toEqual(['Day 1']);
    await shot('folder-picker-vanished');
    await picker().getByTestId('folder-list').focus();
    await ui.page.keyboard.press('Escape');
    await picker().waitFor({ state: 'detached' });
    // Only the picker closed: the Add footage dialog is still there, with nothing added.
    await ui.page.getByTestId('add-paths-dialog').waitFor();
    expect(await ui.page.getByTestId('add-results').count()).toBe(0);
  });
});
