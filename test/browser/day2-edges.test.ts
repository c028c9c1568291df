import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replacedName } from '../../src/shared/replaced-name';
import { fixturePath } from '../fixtures/media';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * Issue 28 item 8, more rough edges an editor met: the drop overlay's words over the empty state's, paths dropped as
 * text added without the dialog's tags and options, a text file named .mp4 called "incomplete", lowercase ffprobe
 * codec names.
 */
describe.skipIf(skipBrowserTests)('rough edges of a real run, part 2 (Chromium, web mode)', () => {
  const ui = uiSession({
    prepare: (running) => {
      copyFileSync(fixturePath('notVideoMp4'), join(running.footageDir, 'notes.mp4'));
      copyFileSync(fixturePath('mpeg4Avi'), join(running.footageDir, 'old.avi'));
      copyFileSync(fixturePath('speechMp4'), join(running.footageDir, 'harbour-talk.mp4'));
    },
  });
  const row = (name: string) => ui.page.locator(`[data-testid="file-row"][data-path$="/${name}"]`);
  const shot = (name: string) => screenshotBothThemes(ui.page, join(screenshotsDir, name));

  it('drops a path as text on the empty library: the overlay stands alone, the dialog takes tags first', async () => {
    await ui.page.goto(ui.running.web.url);
    await ui.page.getByTestId('library-empty').waitFor();
    const text = await ui.page.evaluateHandle((path: string) => {
      // Runs in the page (the node tsconfig has no DOM lib).
      const Ctor = (globalThis as unknown as { DataTransfer: new () => { setData(t: string, d: string): void } })
        .DataTransfer;
      const d = new Ctor();
      d.setData('text/plain', path);
      return d;
    }, ui.running.footageDir);
    await ui.page.dispatchEvent('main', 'dragenter', { dataTransfer: text });
    const overlay = ui.page.getByTestId('drop-overlay');
    await overlay.waitFor();
    // The empty state's words do not show through: the overlay's message sits on a solid panel.
    const panel = await overlay.locator('.drop-overlay-message').evaluate((el) => {
      const g = globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } };
      return g.getComputedStyle(el).backgroundColor;
    });
    expect(panel).toMatch(/^rgb\(/);
    await shot('28-drop-overlay-empty-library');

    await ui.page.dispatchEvent('main', 'drop', { dataTransfer: text });
    const dialog = ui.page.getByTestId('add-paths-dialog');
    await dialog.waitFor();
    // Nothing added yet: the path waits in the field, where tags and options can be set first.
    expect(await ui.page.getByLabel('Paths to add').inputValue()).toBe(ui.running.footageDir);
    expect(await dialog.getByTestId('add-results').count()).toBe(0);
    await dialog.getByPlaceholder('shoot-42, drone').fill('day-two');
    await shot('28-dropped-path-in-dialog');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.locator('[data-testid="add-results"] [data-outcome="watching"]').waitFor();
    await ui.page.keyboard.press('Escape');
    await ui.page.getByTestId('nav-settings').click();
    await expect.poll(() => ui.page.getByTestId('folder-list').textContent()).toContain('day-two');
  });

  it('says a text file named .mp4 is not a video at all, and names codecs as editors know them', async () => {
    await ui.page.getByTestId('nav-library').click();
    await expect.poll(() => row('notes.mp4').getAttribute('data-status'), { timeout: 30_000 }).toBe('skipped');
    const reason = row('notes.mp4').getByTestId('file-reason');
    expect(await reason.textContent()).toBe(
      'This is not a video at all: it holds text, whatever its name says. Nothing to upload.',
    );
    expect(await row('notes.mp4').locator('.reason-line').getAttribute('data-tone')).toBe('error');
    // MPEG-4 Part 2 goes up as a search proxy; the Library names the original's codec.
    await expect
      .poll(() => row('old.avi').getAttribute('data-status'), { timeout: 120_000, interval: 500 })
      .toBe('indexed');
    expect(await row('old.avi').getByTestId('fact-codec').textContent()).toBe('MPEG-4 Part 2');
    // No file has a camera or a date: those columns give their room to the names and reasons.
    const headers = await ui.page.locator('[role="columnheader"]:visible').allTextContents();
    expect(headers).toEqual(['Name', 'Duration', 'Resolution', 'FPS', 'Codec', 'Size', 'Status']);
    const whole = (el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth <= el.clientWidth;
    expect(await row('old.avi').getByTestId('fact-codec').evaluate(whole)).toBe(true);
    expect(await reason.getAttribute('title')).toBe(await reason.textContent());
    await shot('28-not-a-video-and-codec-names');
  }, 150_000);

  it('offers Replace when the export file exists, and keeps the replaced file beside it', async () => {
    await row('old.avi').click({ button: 'right' });
    await ui.page.getByTestId('menu-save-clip').click();
    await ui.page.getByTestId('save-clip-submit').click();
    await ui.page.getByTestId('save-clip-dialog').waitFor({ state: 'detached' });
    await ui.page.getByTestId('nav-clips').click();
    await ui.page.getByTestId('clip-card').first().waitFor();
    await ui.page.getByTestId('export-open').click();
    const file = await ui.page.getByTestId('export-file').inputValue();
    await ui.page.getByTestId('export-run').click();
    await ui.page.getByTestId('export-done').waitFor();
    writeFileSync(file, 'the editor changed this list');
    await ui.page.getByTestId('export-run').click();
    const exists = ui.page.getByTestId('export-exists');
    await exists.waitFor();
    expect(await exists.textContent()).toContain(`Replace keeps the old file beside it as “${replacedName(file)}”`);
    await shot('28-export-replace');
    await ui.page.getByTestId('export-replace').click();
    expect(await ui.page.getByTestId('export-done').textContent()).toContain(file);
    expect(readFileSync(file, 'utf8')).not.toBe('the editor changed this list');
    expect(readFileSync(join(dirname(file), replacedName(file)), 'utf8')).toBe('the editor changed this list');
    await ui.page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).last().click();
    await ui.page.getByRole('dialog').waitFor({ state: 'detached' });
  }, 60_000);

  it("shows a picture on speech-mode cards (the file's poster: speech hits carry no keyframe)", async () => {
    await ui.page.getByTestId('nav-library').click();
    await expect
      .poll(() => row('harbour-talk.mp4').getAttribute('data-status'), { timeout: 120_000, interval: 500 })
      .toBe('indexed');
    await ui.page.getByTestId('nav-search').click();
    await ui.page.getByRole('tab', { name: 'Speech', exact: true }).click();
    await ui.page.getByLabel('Search the library').fill('sunset harbour');
    await ui.page.keyboard.press('Enter');
    const card = ui.page.getByTestId('hit-card').first();
    await card.waitFor({ timeout: 20_000 });
    const poster = card.getByTestId('poster');
    await expect
      .poll(() =>
        poster.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth),
      )
      .toBeGreaterThan(0);
    await shot('28-speech-card-poster');
  }, 150_000);

  it('offline, shows the search made last, even one asked again from the cache', async () => {
    const search = async (query: string) => {
      await ui.page.getByLabel('Search the library').fill(query);
      await ui.page.keyboard.press('Enter');
      // What main keeps as the last results (the offline page shows it).
      const last = async () => {
        const answer = await ui.running.app.registry.invoke('search:last-results', {});
        return answer.ok ? (answer.value as { results: { query: string } | null }).results?.query : null;
      };
      await expect.poll(last, { timeout: 20_000 }).toBe(query);
    };
    await ui.page.getByTestId('nav-search').click();
    await search('colour bars');
    await search('harbour at night');
    // Asked again within a minute: its answer is cached in the page, and it is still the last search made.
    await search('colour bars');
    await ui.running.app.connection.disconnect();
    await ui.page.reload();
    await ui.page.getByTestId('nav-search').click();
    const banner = ui.page.getByTestId('offline-banner');
    await banner.waitFor({ timeout: 20_000 });
    expect(await banner.textContent()).toContain('“colour bars”');
    await shot('28-offline-last-search');
    // Offline, the page's requests to the library (posters) answer 503: expected here, and nothing else may fail.
    expect(ui.errors.splice(0).filter((e) => !e.includes('status of 503 (Service Unavailable)'))).toEqual([]);
  });
});
