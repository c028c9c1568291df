import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { skipBrowserTests } from '../helpers/chromium';
import { addFolderInPage, screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * Issue 28 item 9 (b, c, d), as the editor did it: pick several files in the Library with Ctrl/Cmd-click, Shift-click
 * and the keyboard, save them as clips, see them as a grid of posters (remembered); then in Clips pick several, tag
 * them, export just those (CSV through the export code) and the clips of one tag, and remove some with the undo.
 */
describe.skipIf(skipBrowserTests)('multi-select, grid view and selection actions (Chromium, web mode)', () => {
  const ui = uiSession({ viewport: { width: 1280, height: 800 } });
  const shot = (name: string) => ui.page.screenshot({ path: join(screenshotsDir, `${name}.png`) });
  const names = ['a-harbour.mp4', 'b-harbour.mp4', 'c-harbour.mp4'];
  const row = (n: string) => ui.page.locator(`[data-testid="file-row"][data-path$="/${n}"]`);
  const count = () => ui.page.getByTestId('selection-count').textContent();
  const picked = (kind: 'file-row' | 'clip-card' | 'file-tile') =>
    ui.page
      .locator(`[data-testid="${kind}"][${kind === 'clip-card' ? 'aria-selected' : 'data-picked'}="true"]`)
      .count();
  const ctrl = { modifiers: ['ControlOrMeta' as const] };
  const shift = { modifiers: ['Shift' as const] };

  it('selects Library files by click, Shift-click, Ctrl-click and keys, saves them as clips, and shows a grid', async () => {
    await addFolderInPage(ui.page, ui.running.web.url, ui.running.footageDir);
    for (const n of names) copyFileSync(fixturePath('drawnTextMp4'), join(ui.running.footageDir, n));
    for (const n of names)
      await expect.poll(() => row(n).getAttribute('data-status'), { timeout: 120_000, interval: 500 }).toBe('indexed');
    await ui.page.getByTestId('sort-name').click();

    await row('a-harbour.mp4').click(ctrl);
    await row('c-harbour.mp4').click(shift);
    expect(await count()).toBe('3 files selected');
    expect(await picked('file-row')).toBe(3);
    await shot('30-library-multi-select');
    await row('b-harbour.mp4').click(ctrl);
    expect(await count()).toBe('2 files selected');
    await ui.page.getByRole('button', { name: 'Clear the selection' }).click();
    expect(await picked('file-row')).toBe(0);
    // A plain click still plays, as before; the keyboard selects: Shift+Down extends, Ctrl/Cmd-A takes all.
    await row('a-harbour.mp4').focus();
    await ui.page.keyboard.press('Shift+ArrowDown');
    expect(await count()).toBe('2 files selected');
    await ui.page.keyboard.press('ControlOrMeta+a');
    await expect.poll(count).toBe('All 3 matching files are selected');

    await ui.page.getByTestId('selection-save-clips').click();
    await ui.page.locator('.toast-title', { hasText: 'Saving 3 clips' }).waitFor();

    // The grid of posters, remembered across a reload; the selection rules are the same there.
    await ui.page.getByTestId('view-grid').click();
    const tiles = ui.page.getByTestId('file-tile');
    await expect.poll(() => tiles.count()).toBe(3);
    await expect
      .poll(() =>
        tiles
          .first()
          .locator('img')
          .evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    // The selection carried over from the list (all three); Ctrl/Cmd-click drops one.
    expect(await picked('file-tile')).toBe(3);
    await tiles.nth(1).click(ctrl);
    expect(await picked('file-tile')).toBe(2);
    await shot('31-library-grid');
    await ui.page.reload();
    await expect.poll(() => ui.page.getByTestId('file-tile').count()).toBe(3);
    expect(await ui.page.getByTestId('view-grid').getAttribute('data-state')).toBe('active');
    await ui.page.getByTestId('file-tile').first().focus();
    await ui.page.keyboard.press('ArrowRight');
    expect(
      await ui.page.evaluate(
        () =>
          (
            globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } } }
          ).document.activeElement.getAttribute('data-path') ?? '',
      ),
    ).toMatch(/b-harbour\.mp4$/);
    await ui.page.getByTestId('view-list').click();
    await row('a-harbour.mp4').waitFor();

    // The column chooser: hide Camera and FPS; the list closes up and remembers it after a reload.
    await ui.page.getByTestId('column-chooser').click();
    await ui.page.getByTestId('column-camera').click();
    await ui.page.getByTestId('column-fps').click();
    await ui.page.keyboard.press('Escape');
    await expect.poll(() => ui.page.getByTestId('sort-camera').isVisible()).toBe(false);
    expect(await ui.page.getByTestId('sort-fps').isVisible()).toBe(false);
    expect(await row('a-harbour.mp4').locator('[data-col="camera"]').isVisible()).toBe(false);
    await ui.page.reload();
    await row('a-harbour.mp4').waitFor();
    expect(await ui.page.getByTestId('sort-camera').isVisible()).toBe(false);
    expect(await ui.page.getByTestId('sort-codec').isVisible()).toBe(true);
    // The hidden columns leave no gap: Codec's header sits right after Resolution's.
    const right = async (id: string) => {
      const box = await ui.page.getByTestId(id).boundingBox();
      return box ? box.x + box.width : NaN;
    };
    const codecLeft = (await ui.page.getByTestId('sort-codec').boundingBox())?.x ?? NaN;
    expect(codecLeft - (await right('sort-resolution'))).toBeLessThan(30);
    await shot('34-library-columns');
  }, 240_000);

  it('selects clips, tags them, exports the selection and one tag, and removes with undo', async () => {
    await ui.page.getByTestId('nav-clips').click();
    const cards = ui.page.getByTestId('clip-card');
    await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(3);
    await expect
      .poll(() => ui.page.locator('[data-testid="clip-card"][data-state="ready"]').count(), { timeout: 60_000 })
      .toBe(3);

    await cards.nth(0).click();
    await cards.nth(2).click(shift);
    expect(await count()).toBe('3 clips selected');
    await cards.nth(1).click(ctrl);
    expect(await count()).toBe('2 clips selected');
    await ui.page.getByLabel('Tag for the selected clips').fill('keeper');
    await ui.page.getByTestId('selection-tag').click();
    await expect.poll(() => ui.page.locator('[data-testid="clip-card"] .tag-chip').count()).toBe(2);
    await shot('32-clips-multi-select');

    // Export just the two selected, as CSV through the existing export.
    const bar = ui.page.getByTestId('selection-bar');
    await bar.getByTestId('export-open').click();
    await ui.page.getByRole('tab', { name: 'CSV' }).click();
    await ui.page.getByTestId('export-file').fill(join(ui.running.dataDir, 'exports', 'selected.csv'));
    await ui.page.getByTestId('export-run').click();
    await ui.page.getByTestId('export-done').waitFor();
    const lines = (f: string) =>
      readFileSync(join(ui.running.dataDir, 'exports', f), 'utf8')
        .trim()
        .split(/\r?\n/);
    expect(lines('selected.csv')).toHaveLength(3);
    await ui.page.keyboard.press('Escape');

    // One tag's clips: the tag filter, then Export exports what it shows.
    await cards.nth(0).click();
    await ui.page.getByRole('combobox', { name: 'Tag' }).click();
    await ui.page.getByRole('option', { name: 'keeper' }).click();
    await expect.poll(() => cards.count()).toBe(2);
    await ui.page.locator('.page-header').getByTestId('export-open').click();
    await ui.page.getByText('Export 2 clips as a marker list').waitFor();
    await ui.page.getByRole('tab', { name: 'CSV' }).click();
    await ui.page.getByTestId('export-file').fill(join(ui.running.dataDir, 'exports', 'keeper.csv'));
    await ui.page.getByTestId('export-run').click();
    await ui.page.getByTestId('export-done').waitFor();
    expect(lines('keeper.csv')).toHaveLength(3);
    await ui.page.keyboard.press('Escape');
    await ui.page.getByRole('combobox', { name: 'Tag' }).click();
    await ui.page.getByRole('option', { name: 'Any tag' }).click();
    await expect.poll(() => cards.count()).toBe(3);

    // Ctrl/Cmd-A then Ctrl-click one off: remove two, undo, remove again and wait out the undo window.
    await cards.nth(0).click();
    await ui.page.keyboard.press('ControlOrMeta+a');
    expect(await count()).toBe('3 clips selected');
    await cards.nth(2).click(ctrl);
    await ui.page.getByTestId('selection-remove').click();
    await ui.page.getByTestId('remove-confirm').click();
    await ui.page.getByTestId('undo-remove').click();
    await ui.page.locator('.toast-title', { hasText: 'Kept 2 clips' }).waitFor();
    expect(await cards.count()).toBe(3);
    await cards.nth(0).click();
    await cards.nth(1).click(ctrl);
    await ui.page.getByTestId('selection-remove').click();
    await shot('33-clips-remove-confirm');
    await ui.page.getByTestId('remove-confirm').click();
    await expect.poll(() => cards.count(), { timeout: 20_000 }).toBe(1);
  }, 120_000);
});
