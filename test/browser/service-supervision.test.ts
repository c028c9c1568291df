import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReelsyncApp } from '../../src/main/app';
import { createLogger } from '../../src/main/log';
import { rendererBuildDir } from '../../src/main/paths';
import { startWebServer, type WebServer } from '../../src/main/web/server';
import { launchChromium, openWatchedPage, skipBrowserTests } from '../helpers/chromium';
import { tempDir } from '../helpers/temp';
import { alive } from '../helpers/utility-process';

const artifacts = join(import.meta.dirname, '../../test-artifacts/screenshots');

/** The embedded service killed under an open web-mode tab: the banner says so, "Restart service" brings it back. */
describe.skipIf(skipBrowserTests)('embedded service supervision in headless web mode (Chromium)', () => {
  let app: ReelsyncApp;
  let web: WebServer;
  let cleanup: () => Promise<void>;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    let dir: string;
    ({ dir, cleanup } = await tempDir('reelsync-supervision-ui-'));
    // A long first backoff: the banner stays until the editor clicks "Restart service".
    app = new ReelsyncApp({
      dataDir: dir,
      mode: 'web',
      connect: true,
      logger: createLogger('test'),
      embedded: { tuning: { firstBackoffMs: 120_000 } },
    });
    await app.start();
    web = await startWebServer({ app, rendererDir: rendererBuildDir });
    browser = await launchChromium();
    page = await openWatchedPage(browser, errors);
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await app?.stop();
    await cleanup?.();
  });

  it('shows the real state, a banner when the service dies, and restarts it on click', async () => {
    await page.goto(web.url);
    await page.getByTestId('nav-settings').click();
    const status = page.getByTestId('service-status');
    await expect.poll(() => status.textContent()).toContain('Running');
    expect(await page.getByTestId('connection-detail').textContent()).toContain('Connected to the embedded service');

    const before = app.connection.state();
    if (before.state !== 'running') throw new Error(`service not running: ${before.state}`);
    process.kill(before.pid, 'SIGKILL');

    const banner = page.getByTestId('service-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-state')).toBe('restarting');
    expect(await banner.textContent()).toMatch(
      /The library service stopped unexpectedly\..*attempt 1, next try in \d+ s/,
    );
    await expect.poll(() => page.getByTestId('connection-detail').textContent()).toContain('Not connected');
    expect(await status.textContent()).toContain('restarting');
    // No "Balance OK" from a library that cannot be asked (issue 28 item 8).
    await expect.poll(() => page.getByTestId('balance-state').textContent()).toBe('Balance unknown while offline');
    await shot('40-service-down-banner');

    await banner.getByRole('button', { name: 'Restart service' }).click();
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toContain('restarted 1 time');
    await expect
      .poll(() => page.getByTestId('connection-detail').textContent())
      .toContain('Connected to the embedded service');
    await shot('41-service-restarted');

    const after = app.connection.state();
    expect(after).toMatchObject({ state: 'running', url: before.url, restarts: 1 });
    expect(alive(before.pid)).toBe(false);
    const folders = await app.registry.invoke('library:folders', {});
    expect(folders.ok).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);
});
