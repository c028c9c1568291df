import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const chromiumPath = CANDIDATES.find((p): p is string => !!p && existsSync(p));

/** Browser tests run locally only where Chromium exists; under CI its absence fails them. */
export const skipBrowserTests = !chromiumPath && !process.env.CI;

export async function launchChromium(): Promise<Browser> {
  if (!chromiumPath)
    throw new Error('Chromium not found: install Debian chromium (apt-get install chromium) or set CHROMIUM_PATH');
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

/**
 * A dark 1280x800 page whose script errors, console errors and CSP violations are collected into `errors`: a test
 * checks it after each step (`expect(errors.splice(0)).toEqual([])`), so any of them fails the suite.
 */
export async function openWatchedPage(browser: Browser, errors: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    // A failed load's text does not say what failed: its address does.
    const url = msg.location().url;
    if (msg.type() === 'error')
      errors.push(url && msg.text().startsWith('Failed to load resource') ? `${msg.text()} (${url})` : msg.text());
  });
  // Chromium logs most violations to the console, but the event sees every one (report-only and in workers too).
  await page.exposeFunction('__reportCspViolation', (text: string) => errors.push(`CSP violation: ${text}`));
  await page.addInitScript(() => {
    const g = globalThis as unknown as {
      document: {
        addEventListener(
          type: string,
          listener: (e: {
            violatedDirective: string;
            blockedURI: string;
            sourceFile: string;
            lineNumber: number;
          }) => void,
        ): void;
      };
      __reportCspViolation(text: string): void;
    };
    g.document.addEventListener('securitypolicyviolation', (e) =>
      g.__reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
  return page;
}

/** `${base}-dark.png` and `${base}-light.png` of the page as it stands, leaving it dark. */
export async function screenshotBothThemes(page: Page, base: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${base}-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: `${base}-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
}
