import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture } from '../fixtures/media';
import { skipBrowserTests } from '../helpers/chromium';
import { screenshotsDir, uiSession } from '../helpers/ui-app';

/** Issue 17 item 9: finished transfers listed with speed and result; a failed file counted in the sidebar and status bar. */
describe.skipIf(skipBrowserTests)(
  'uploads history and failed counts in headless web mode (Chromium, embedded service)',
  () => {
    let refusedPath: string;
    const ui = uiSession({
      prepare: async (running) => {
        const refused = join(running.footageDir, '..', 'refused');
        await mkdir(refused, { recursive: true });
        refusedPath = await copyFixture('hevcMov', refused);
        // Filed into a library folder this account does not own: the embedded service refuses the upload (400), for good.
        const added = await running.app.registry.invoke('folders:add', { path: refused, folderId: 987654 });
        expect(added.ok).toBe(true);
      },
    });
    const shot = async (name: string): Promise<void> => {
      for (const scheme of ['dark', 'light'] as const) {
        await ui.page.emulateMedia({ colorScheme: scheme });
        await ui.page.screenshot({ path: join(screenshotsDir, `${name}-${scheme}.png`) });
      }
    };

    it('counts the failed file in the sidebar badge and the status bar, and lists it with its reason', async () => {
      await ui.page.goto(ui.running.web.url);
      await expect
        .poll(
          () =>
            ui.page
              .getByTestId('count-uploads-failed')
              .textContent()
              .catch(() => null),
          { timeout: 60_000, interval: 500 },
        )
        .toBe('1 failed');
      expect(await ui.page.getByTestId('count-uploads').textContent()).toBe('1');
      expect(await ui.page.getByTestId('status-failed').textContent()).toContain('1 failed');
      expect(await ui.page.getByTestId('queue-progress').textContent()).toContain('0/1 searchable');

      await ui.page.getByTestId('nav-uploads').click();
      const row = ui.page.locator(`[data-testid="file-row"][data-path="${refusedPath}"]`);
      await row.waitFor();
      expect(await row.getAttribute('data-status')).toBe('failed');
      const history = ui.page.locator(`[data-testid="history-row"][data-path="${refusedPath}"]`);
      await history.waitFor();
      expect(await history.getAttribute('data-result')).toBe('failed');
      await history.getByText('Why it did not upload').click();
      expect(await history.textContent()).toContain('987654');
      await shot('uploads-failed');
    });

    it('adds a folder, a single video and refuses a relative path in the one "Add footage" dialog, then lists the finished uploads', async () => {
      const inFolder = await copyFixture('phoneH264Mp4', ui.running.footageDir);
      const loneDir = join(ui.running.footageDir, '..', 'loose');
      await mkdir(loneDir, { recursive: true });
      const lone = await copyFixture('vp9Mkv', loneDir);
      await copyFixture('hevcMov', loneDir, 'neighbour-not-added.mov');

      // In a browser a dropped folder carries no path: the overlay says so while dragging.
      const files = await ui.page.evaluateHandle(() => {
        const g = globalThis as unknown as {
          DataTransfer: new () => { items: { add(f: unknown): void } };
          File: new (parts: string[], name: string) => unknown;
        };
        const dt = new g.DataTransfer();
        dt.items.add(new g.File(['x'], 'Day 1'));
        return dt;
      });
      await ui.page.dispatchEvent('main, body', 'dragenter', { dataTransfer: files });
      expect(await ui.page.getByTestId('drop-overlay').textContent()).toContain(
        'A browser does not say where a dropped folder lives',
      );
      // The drop opens "Add footage" to type the path instead (the dialog every other way in uses).
      await ui.page.dispatchEvent('main, body', 'drop', { dataTransfer: files });
      await ui.page.getByTestId('drop-overlay').waitFor({ state: 'detached' });
      await ui.page.getByTestId('add-paths-dialog').waitFor();
      await ui.page.getByLabel('Paths to add').fill([ui.running.footageDir, lone, 'footage/day2'].join('\n'));
      await ui.page.getByPlaceholder('shoot-42, drone').fill('day-one');
      await shot('add-footage-dialog');
      await ui.page.getByRole('button', { name: 'Add', exact: true }).click();
      const results = ui.page.getByTestId('add-results');
      await results.waitFor();
      expect(await results.locator('[data-outcome="watching"]').count()).toBe(2);
      expect(await results.locator('[data-outcome="rejected"]').textContent()).toContain('not a full path');
      await shot('add-footage-results');
      await ui.page.keyboard.press('Escape');

      await ui.page.getByTestId('nav-uploads').click();
      for (const path of [inFolder, lone]) {
        const history = ui.page.locator(`[data-testid="history-row"][data-path="${path}"]`);
        await history.waitFor({ timeout: 60_000 });
        expect(await history.getAttribute('data-result')).toBe('uploaded');
        expect(await history.locator('.history-figures').textContent()).toMatch(
          /^[\d.]+ (KB|MB) in [\d.]+ s · [\d.]+ (B|KB|MB|GB)\/s$/,
        );
      }
      // Only the file added on its own was taken from its folder; the denominator stays put as files settle.
      await expect
        .poll(() => ui.page.getByTestId('queue-progress').textContent(), { timeout: 60_000, interval: 500 })
        .toMatch(/^\d\/3 searchable · 1 failed/);
      await shot('uploads-history');

      // Settings opens the same dialog, and lists the single file among the watched paths with its tag.
      await ui.page.getByTestId('nav-settings').click();
      await ui.page.getByTestId('folder-list').getByText(lone).waitFor();
      expect(await ui.page.getByTestId('folder-list').textContent()).toContain('tags day-one');
      await ui.page.getByTestId('settings-add-footage').click();
      await ui.page.getByTestId('add-paths-dialog').waitFor();
      await ui.page.keyboard.press('Escape');
    });
  },
);
