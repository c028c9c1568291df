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
describe.skipIf(skipBrowserTests)('uploads history and failed counts in headless web mode (Chromium, embedded service)', () => {
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
    await expect.poll(() => page.getByTestId('count-uploads-failed').textContent().catch(() => null), { timeout: 60_000, interval: 500 }).toBe('1 failed');
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

  it('lists a finished upload with its size, time and speed once a good file is added', async () => {
    const good = await copyFixture('phoneH264Mp4', running.footageDir);
    const added = await running.app.registry.invoke('folders:add', { path: running.footageDir });
    expect(added.ok).toBe(true);
    const history = page.locator(`[data-testid="history-row"][data-path="${good}"]`);
    await history.waitFor({ timeout: 60_000 });
    expect(await history.getAttribute('data-result')).toBe('uploaded');
    expect(await history.locator('.history-figures').textContent()).toMatch(/^[\d.]+ (KB|MB) in [\d.]+ s · [\d.]+ (B|KB|MB|GB)\/s$/);
    // The denominator does not move as files settle: two files, one failed.
    await expect.poll(() => page.getByTestId('queue-progress').textContent(), { timeout: 60_000, interval: 500 }).toMatch(/^\d\/2 searchable · 1 failed/);
    await shot('uploads-history');
  });
});
