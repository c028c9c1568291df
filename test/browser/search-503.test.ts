import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ReelsyncApp } from '../../src/main/app';
import { createLogger } from '../../src/main/log';
import { rendererBuildDir } from '../../src/main/paths';
import { startWebServer, type WebServer } from '../../src/main/web/server';
import { launchChromium, openWatchedPage, skipBrowserTests } from '../helpers/chromium';
import { tempDir } from '../helpers/temp';
import { screenshotsDir } from '../helpers/ui-app';

/**
 * A library service over real HTTP on 127.0.0.1 that is up (its folder list answers, so the connectivity probe says
 * online) but whose search answers 503, as a gateway in front of an overloaded service does.
 */
async function startOverloadedLibrary(): Promise<{ baseUrl: string; searches: () => number; close(): Promise<void> }> {
  let searches = 0;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    req.resume();
    if (req.method === 'POST' && path.endsWith('/search')) {
      searches++;
      res.writeHead(503, { 'content-type': 'text/plain' }).end('service unavailable');
      return;
    }
    if (path.endsWith('/semantic')) {
      // A cloud service has no model slot (a Reelsync extension): its unknown routes answer 404.
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ code: '0404', msg: 'not found', data: null, success: false, failed: true }));
      return;
    }
    const data = path.endsWith('/folders') ? [] : null;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ code: '0000', msg: 'ok', data, success: true, failed: false }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/serve/api/v1`,
    searches: () => searches,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.skipIf(skipBrowserTests)('a 503 during search (Chromium, headless web mode)', () => {
  let library: Awaited<ReturnType<typeof startOverloadedLibrary>>;
  let app: ReelsyncApp;
  let web: WebServer;
  let cleanup: () => Promise<void>;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    library = await startOverloadedLibrary();
    const dir = await tempDir('reelsync-503-');
    cleanup = dir.cleanup;
    app = new ReelsyncApp({
      dataDir: dir.dir,
      mode: 'web',
      logger: createLogger('test'),
      library: { baseUrl: library.baseUrl, key: 'k-503' },
    });
    await app.start();
    web = await startWebServer({ app, rendererDir: rendererBuildDir });
    browser = await launchChromium();
    page = await openWatchedPage(browser, errors);
  });
  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await app?.stop();
    await library?.close();
    await cleanup?.();
  });

  it('answers search:run with the offline code, the one every library call maps a 5xx to', async () => {
    const answer = await app.registry.invoke('search:run', { query: 'boats' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'offline' } });
    expect(library.searches()).toBeGreaterThan(0);
  });

  it('shows the offline banner, not "Search failed"', async () => {
    await page.goto(web.url);
    await page.getByTestId('nav-search').click();
    await page.getByLabel('Search the library').fill('boats');
    const before = library.searches();
    await page.keyboard.press('Enter');
    const banner = page.getByTestId('offline-banner');
    await banner.waitFor({ timeout: 20_000 });
    expect(await banner.textContent()).toContain('Offline');
    expect(library.searches()).toBeGreaterThan(before);
    expect(await page.getByText('Search failed').count()).toBe(0);
  }, 60_000);

  it('Settings names the server the app was started with, and keeps the saved choice apart from it', async () => {
    await page.goto(web.url);
    await page.getByTestId('nav-settings').click();
    const detail = page.getByTestId('connection-detail');
    await expect.poll(() => detail.textContent()).toContain('given at start-up');
    expect(await detail.textContent()).toContain(library.baseUrl);
    expect(await page.getByTestId('endpoint-label').textContent()).toBe('Library when started without a server');
    // That server has no model slot of its own (404): the card says so instead of showing an error.
    await expect.poll(() => page.getByTestId('semantic-state').textContent()).toContain('up to the library service');
    await detail.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshotsDir, 'settings-given-server.png') });
  });
});
