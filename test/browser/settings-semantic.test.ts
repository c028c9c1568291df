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

  it('says what the model costs before downloading, and Search offers it beside keyword-only results', async () => {
    await expect.poll(state).toBe('semantic search: off (model not downloaded)');
    // The size the host states for its files, and the time at 100 Mbit/s, before a byte is downloaded.
    const total = [...tinyClipFiles().values()].reduce((n, d) => n + d.length, 0);
    const card = page.getByTestId('semantic-model');
    await expect.poll(() => card.textContent(), { timeout: 20_000 }).toContain('at 100 Mbit/s');
    expect(hub.requests.filter((r) => r.method === 'GET')).toEqual([]);
    expect(total).toBeGreaterThan(0);
    await card.scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, join(artifacts, 'settings-semantic-off'));

    // Search says the results match words only, with the model one click away; an empty result says it may find it.
    await page.getByTestId('nav-search').click();
    await page.getByLabel('Search the library').fill('a dog on a beach');
    await page.keyboard.press('Enter');
    await page.getByTestId('search-no-results').waitFor();
    const hint = page.getByTestId('semantic-hint');
    expect(await hint.textContent()).toContain('The semantic model may find it.');
    expect(await hint.textContent()).toContain('at 100 Mbit/s');
    await screenshotBothThemes(page, join(artifacts, '30-search-semantic-hint'));
    await page.getByTestId('nav-settings').click();
  });

  it('cancels a download under way, and Download starts it again', async () => {
    hub.faults = { slow: { chunk: 32, delayMs: 40 } };
    await page.getByTestId('semantic-download').click();
    await expect.poll(state, { timeout: 20_000 }).toMatch(/^semantic search: downloading/);
    await page.getByTestId('semantic-cancel').click();
    await expect.poll(state, { timeout: 20_000 }).toBe('semantic search: off (model not downloaded)');
    await page.getByTestId('semantic-download').waitFor();
  });

  it('shows the download progress until it is on', async () => {
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
