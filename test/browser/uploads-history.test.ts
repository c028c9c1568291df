import { mkdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture } from '../fixtures/media';
import { launchChromium, openWatchedPage, skipBrowserTests } from '../helpers/chromium';
import { startUiApp, type RunningUiApp } from '../helpers/ui-app';

const artifacts = join(import.meta.dirname, '../../test-artifacts/screenshots');

/** Issue 17 item 9: finished transfers listed with speed and result; a failed file counted in the sidebar and status bar. */
describe.skipIf(skipBrowserTests)(
  'uploads history and failed counts in headless web mode (Chromium, embedded service)',
  () => {
    let running: RunningUiApp;
    let browser: Browser;
    let page: Page;
    let refusedPath: string;
    const errors: string[] = [];
    const shot = async (name: string): Promise<void> => {
      for (const scheme of ['dark', 'light'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: join(artifacts, `${name}-${scheme}.png`) });
      }
    };

    beforeAll(async () => {
      mkdirSync(artifacts, { recursive: true });
      running = await startUiApp();
      const refused = join(running.footageDir, '..', 'refused');
      await mkdir(refused, { recursive: true });
      refusedPath = await copyFixture('hevcMov', refused);
      // Filed into a library folder this account does not own: the embedded service refuses the upload (400), for good.
      const added = await running.app.registry.invoke('folders:add', { path: refused, folderId: 987654 });
      expect(added.ok).toBe(true);
      browser = await launchChromium();
      page = await openWatchedPage(browser, errors);
    });
    afterEach(() => {
      expect(errors.splice(0)).toEqual([]);
    });
    afterAll(async () => {
      await browser?.close();
      await running?.stop();
    });

    it('counts the failed file in the sidebar badge and the status bar, and lists it with its reason', async () => {
      await page.goto(running.web.url);
      await expect
        .poll(
          () =>
            page
              .getByTestId('count-uploads-failed')
              .textContent()
              .catch(() => null),
          { timeout: 60_000, interval: 500 },
        )
        .toBe('1 failed');
      expect(await page.getByTestId('count-uploads').textContent()).toBe('1');
      expect(await page.getByTestId('status-failed').textContent()).toContain('1 failed');
      expect(await page.getByTestId('queue-progress').textContent()).toContain('0/1 searchable');

      await page.getByTestId('nav-uploads').click();
      const row = page.locator(`[data-testid="file-row"][data-path="${refusedPath}"]`);
      await row.waitFor();
      expect(await row.getAttribute('data-status')).toBe('failed');
      const history = page.locator(`[data-testid="history-row"][data-path="${refusedPath}"]`);
      await history.waitFor();
      expect(await history.getAttribute('data-result')).toBe('failed');
      await history.getByText('Why it did not upload').click();
      expect(await history.textContent()).toContain('987654');
      await shot('uploads-failed');
    });

    it('adds a folder, a single video and refuses a relative path in the one "Add footage" dialog, then lists the finished uploads', async () => {
      const inFolder = await copyFixture('phoneH264Mp4', running.footageDir);
      const loneDir = join(running.footageDir, '..', 'loose');
      await mkdir(loneDir, { recursive: true });
      const lone = await copyFixture('vp9Mkv', loneDir);
      await copyFixture('hevcMov', loneDir, 'neighbour-not-added.mov');

      // In a browser a dropped folder carries no path: the overlay says so while dragging.
      const files = await page.evaluateHandle(() => {
        const g = globalThis as unknown as {
          DataTransfer: new () => { items: { add(f: unknown): void } };
          File: new (parts: string[], name: string) => unknown;
        };
        const dt = new g.DataTransfer();
        dt.items.add(new g.File(['x'], 'Day 1'));
        return dt;
      });
      await page.dispatchEvent('main, body', 'dragenter', { dataTransfer: files });
      expect(await page.getByTestId('drop-overlay').textContent()).toContain(
        'A browser does not say where a dropped folder lives',
      );
      // The drop opens "Add footage" to type the path instead (the dialog every other way in uses).
      await page.dispatchEvent('main, body', 'drop', { dataTransfer: files });
      await page.getByTestId('drop-overlay').waitFor({ state: 'detached' });
      await page.getByTestId('add-paths-dialog').waitFor();
      await page.getByLabel('Paths to add').fill([running.footageDir, lone, 'footage/day2'].join('\n'));
      await page.getByPlaceholder('shoot-42, drone').fill('day-one');
      await shot('add-footage-dialog');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      const results = page.getByTestId('add-results');
      await results.waitFor();
      expect(await results.locator('[data-outcome="watching"]').count()).toBe(2);
      expect(await results.locator('[data-outcome="rejected"]').textContent()).toContain('not a full path');
      await shot('add-footage-results');
      await page.keyboard.press('Escape');

      await page.getByTestId('nav-uploads').click();
      for (const path of [inFolder, lone]) {
        const history = page.locator(`[data-testid="history-row"][data-path="${path}"]`);
        await history.waitFor({ timeout: 60_000 });
        expect(await history.getAttribute('data-result')).toBe('uploaded');
        expect(await history.locator('.history-figures').textContent()).toMatch(
          /^[\d.]+ (KB|MB) in [\d.]+ s · [\d.]+ (B|KB|MB|GB)\/s$/,
        );
      }
      // Only the file added on its own was taken from its folder; the denominator stays put as files settle.
      await expect
        .poll(() => page.getByTestId('queue-progress').textContent(), { timeout: 60_000, interval: 500 })
        .toMatch(/^\d\/3 searchable · 1 failed/);
      await shot('uploads-history');

      // Settings opens the same dialog, and lists the single file among the watched paths with its tag.
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('folder-list').getByText(lone).waitFor();
      expect(await page.getByTestId('folder-list').textContent()).toContain('tags day-one');
      await page.getByTestId('settings-add-footage').click();
      await page.getByTestId('add-paths-dialog').waitFor();
      await page.keyboard.press('Escape');
    });
  },
);
