import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowserTests } from '../helpers/chromium';
import { startWebApp, type RunningWebApp } from '../helpers/web-app';

const artifacts = join(import.meta.dirname, '../../test-artifacts/screenshots');

describe.skipIf(skipBrowserTests)('UI in headless web mode (Chromium)', () => {
  let running: RunningWebApp;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    running = await startWebApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('loads the app, calls the contract end to end and shows the answers', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    await page.goto(running.web.url);
    await expect.poll(() => page.getByTestId('app-mode').textContent()).toBe('web');
    expect(await page.getByTestId('connection-state').textContent()).toContain('Connected');
    expect(await page.getByTestId('app-version').textContent()).toMatch(/^v\d+\.\d+\.\d+/);
    expect(page.url()).not.toContain('token=');

    await page.getByRole('button', { name: 'Check connection' }).click();
    await expect.poll(() => page.getByTestId('ping-result').textContent()).toMatch(/^Round trip \d+ ms$/);
    await page.screenshot({ path: join(artifacts, 'overview.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the offline state when the web server is gone', async () => {
    const page = await browser.newPage();
    await page.goto(running.web.url);
    await expect.poll(() => page.getByTestId('app-mode').textContent()).toBe('web');
    await running.web.close();
    await page.getByRole('button', { name: 'Check connection' }).click();
    await expect.poll(() => page.getByText(/not reachable/).count()).toBeGreaterThan(0);
    await page.close();
  });
});
