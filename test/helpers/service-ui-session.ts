import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launchChromium, openWatchedPage } from './chromium';
import { startService, type TestService } from './service';
import { screenshotsDir } from './ui-app';
import { startWebApp, type RunningWebApp } from './web-app';

export interface ServiceUiSession {
  readonly service: TestService;
  readonly running: RunningWebApp;
  readonly page: Page;
}

/**
 * uiSession's form for a library service configured by the test (a model host, say): the service, the web app
 * connected to it, Chromium on the app's first page; any page error fails the step it happened in. `before` runs first
 * (a host to start) and its answer configures the service; `after` runs last.
 */
export function serviceUiSession(o: {
  service: () => Promise<Parameters<typeof startService>[0]> | Parameters<typeof startService>[0];
  after?: () => Promise<void>;
}): ServiceUiSession {
  let service: TestService | undefined;
  let running: RunningWebApp | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  const errors: string[] = [];
  beforeAll(async () => {
    await mkdir(screenshotsDir, { recursive: true });
    service = await startService(await o.service());
    running = await startWebApp({ baseUrl: service.baseUrl, key: service.key });
    browser = await launchChromium();
    page = await openWatchedPage(browser, errors);
    await page.goto(running.web.url);
  }, 120_000);
  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    await service?.stop();
    await o.after?.();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('serviceUiSession: read before its beforeAll ran');
    return value;
  };
  return {
    get service() {
      return started(service);
    },
    get running() {
      return started(running);
    },
    get page() {
      return started(page);
    },
  };
}
