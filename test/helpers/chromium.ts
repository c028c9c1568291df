import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const chromiumPath = CANDIDATES.find((p): p is string => !!p && existsSync(p));

/** Browser tests run locally only where Chromium exists; under CI its absence fails them. */
export const skipBrowserTests = !chromiumPath && !process.env.CI;

export async function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error('Chromium not found: install Debian chromium (apt-get install chromium) or set CHROMIUM_PATH');
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A dark 1280x800 page whose script errors and console errors are collected into `errors`. */
export async function openWatchedPage(browser: Browser, errors: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  return page;
}
