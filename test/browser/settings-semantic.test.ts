import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage, screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { startModelHub, type ModelHub } from '../helpers/model-hub';
import { startService, type TestService } from '../helpers/service';
import { tinyClipFiles } from '../helpers/tiny-clip/tiny-clip';
import { startWebApp, type RunningWebApp } from '../helpers/web-app';

const artifacts = join(import.meta.dirname, '../../test-artifacts/screenshots');
const REPO = 'tests/tiny-clip';

/** Settings shows whether semantic search is on, and downloads the model with a progress bar (local model host). */
describe.skipIf(skipBrowserTests)('Settings: the semantic model (headless web mode, Chromium)', () => {
  let hub: ModelHub;
  let service: TestService;
  let running: RunningWebApp;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    hub = await startModelHub(REPO, tinyClipFiles());
    service = await startService({ config: { semantic: { host: hub.url, model: REPO } } });
    running = await startWebApp({ baseUrl: service.baseUrl, key: service.key });
    browser = await launchChromium();
    page = await openWatchedPage(browser, errors);
    await page.goto(running.web.url);
    await page.getByTestId('nav-settings').click();
  }, 120_000);
  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    await service?.stop();
    await hub?.close();
  });

  const state = () => page.getByTestId('semantic-state').textContent();

  it('says semantic search is off, then shows the download progress until it is on', async () => {
    await expect.poll(state).toBe('semantic search: off (model not downloaded)');
    await page.getByTestId('semantic-model').scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, join(artifacts, 'settings-semantic-off'));
    // Slow enough (~6 s for the whole model) for the bar to be seen moving.
    hub.faults = { slow: { chunk: 32, delayMs: 40 } };
    await page.getByRole('button', { name: 'Download model' }).click();
    const bar = page.getByTestId('semantic-model').getByRole('progressbar', { name: 'Semantic model download' });
    await bar.waitFor();
    await expect.poll(state, { timeout: 20_000 }).toMatch(/^semantic search: downloading tests\/tiny-clip \d+%$/);
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await screenshotBothThemes(page, join(artifacts, 'settings-semantic-downloading'));
    await expect.poll(state, { timeout: 60_000 }).toBe('semantic search: on (tests/tiny-clip)');
    expect(await bar.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Download model' }).count()).toBe(0);
    await screenshotBothThemes(page, join(artifacts, 'settings-semantic-ready'));
  });
});
