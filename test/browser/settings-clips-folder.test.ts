import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage, skipBrowserTests } from '../helpers/chromium';
import { tempDir } from '../helpers/temp';
import { startWebApp, type RunningWebApp } from '../helpers/web-app';

const artifacts = join(import.meta.dirname, '../../test-artifacts/screenshots');

/** The editor picks where new clips go in Settings; a folder outside the output folders is refused with the reason. */
describe.skipIf(skipBrowserTests)('Settings: the clips folder (headless web mode, Chromium)', () => {
  let running: RunningWebApp;
  let browser: Browser;
  let page: Page;
  let outside: { dir: string; cleanup: () => Promise<void> };
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    running = await startWebApp();
    outside = await tempDir('reelsync-edits-');
    browser = await launchChromium();
    page = await openWatchedPage(browser, errors);
    await page.goto(running.web.url);
    await page.getByTestId('nav-settings').click();
  });
  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    await outside?.cleanup();
  });

  const shown = () => page.getByTestId('clips-folder-path').textContent();

  it('shows Reelsync’s own clips folder, refuses one outside the output folders, then saves new clips where the editor chose', async () => {
    const builtin = realpathSync(join(running.dataDir, 'clips'));
    await expect.poll(shown).toBe(builtin);

    const edits = realpathSync(outside.dir);
    const target = join(edits, 'Edits', 'clips');
    await page.getByLabel('Clips folder path').fill(target);
    await page.getByTestId('clips-folder-save').click();
    await page.getByTestId('clips-folder-error').waitFor();
    expect(await page.getByTestId('clips-folder-error').textContent()).toContain(
      'outside the folders Reelsync may write to',
    );
    expect(existsSync(target)).toBe(false);

    await page.getByLabel('Output folder path').fill(edits);
    await page.getByRole('button', { name: 'Allow folder' }).click();
    await page.getByTestId('destination-roots').getByText(edits, { exact: true }).waitFor();
    await page.getByLabel('Clips folder path').fill(target);
    await page.getByTestId('clips-folder-save').click();
    await expect.poll(shown).toBe(target);
    expect(existsSync(target)).toBe(true);
    await page.getByTestId('clips-folder').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, '40-settings-clips-folder.png') });

    const newest = () => running.app.library?.clips.list(1, 1, {}).rows[0]?.out_dir;
    expect((await running.app.registry.invoke('clips:save', { videoNo: 'V-1', start: 0, end: 1 })).ok).toBe(true);
    expect(newest()).toBe(target);

    await page.getByRole('button', { name: 'Use Reelsync’s folder' }).click();
    await expect.poll(shown).toBe(builtin);
    expect((await running.app.registry.invoke('clips:save', { videoNo: 'V-1', start: 0, end: 1 })).ok).toBe(true);
    expect(newest()).toBe(join(running.dataDir, 'clips'));
  }, 60_000);

  it('an EDL of clips with no known rate is refused with the reason; with the project rate chosen it is written', async () => {
    await page.getByTestId('nav-clips').click();
    await page.getByTestId('export-open').click();
    await page.getByRole('tab', { name: 'EDL (CMX3600)' }).click();
    await page.getByTestId('export-run').click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('Choose the project frame rate');
    await page.getByTestId('export-rate').selectOption('29.97-df');
    await page.getByTestId('export-run').click();
    await page.getByTestId('export-done').waitFor();
    await page.screenshot({ path: join(artifacts, '41-export-frame-rate.png') });
    const written = readFileSync(join(running.dataDir, 'exports', 'reelsync-clips.edl'), 'utf8');
    expect(written).toContain('FCM: DROP FRAME');
    // The reel is the source's name (V-1 as CMX allows it, the full name on a REEL line), not AX (issue 26).
    expect(written).toContain('001  V1       V     C        00:00:00;00 00:00:01;00 01:00:00;00 01:00:01;00');
    expect(written).toContain('* REEL: V-1');
  }, 60_000);
});
