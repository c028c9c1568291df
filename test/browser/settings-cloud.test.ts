import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { useService } from '../helpers/use-service';
import { screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * Issue 28 item 5, as the editor did it: "Use cloud" took an unreachable address and a made-up key without trying
 * them, switched the radio while the connection line still said embedded, and said at the bottom of the page that it
 * applied at next start. Now it tries them with a real call, says what failed in plain words, and a library that
 * answers is used at once. The "cloud" here is a second Reelsync service on loopback, the cloud's stand-in.
 */
describe.skipIf(skipBrowserTests)('choosing the library in Settings (Chromium, web mode)', () => {
  const ui = uiSession({ viewport: { width: 1280, height: 900 } });
  const cloud = useService({ credits: 10 });
  const detail = () => ui.page.getByTestId('connection-detail').textContent();
  const error = () => ui.page.getByTestId('library-switch-error');
  const tryCloud = async (url: string, key: string): Promise<void> => {
    await ui.page.getByLabel('Cloud URL').fill(url);
    await ui.page.getByLabel('Cloud API key').fill(key);
    await ui.page.getByTestId('use-cloud').click();
  };

  it('refuses an unreachable address and a wrong key in plain words, changing nothing, and uses a working one at once', async () => {
    const service = cloud();
    await ui.page.goto(ui.running.web.url);
    await ui.page.getByTestId('nav-settings').click();
    await expect.poll(detail).toContain('Connected to the embedded service');

    await tryCloud('http://127.0.0.1:9', 'made-up-key');
    await error().waitFor();
    expect(await error().textContent()).toContain('Could not reach 127.0.0.1:9 (nothing answers at that address)');
    expect(await ui.page.getByTestId('use-embedded').isChecked()).toBe(true);
    expect(await detail()).toContain('Connected to the embedded service');
    await error().scrollIntoViewIfNeeded();
    await screenshotBothThemes(ui.page, join(screenshotsDir, '28-cloud-unreachable'));

    await tryCloud(service.baseUrl, 'made-up-key');
    await expect.poll(() => error().textContent()).toContain('refused this key');
    expect(await ui.page.getByTestId('use-embedded').isChecked()).toBe(true);

    await tryCloud(service.baseUrl, service.key);
    await expect.poll(detail, { timeout: 30_000 }).toBe(`Connected to the cloud service at ${service.baseUrl}`);
    expect(await ui.page.getByTestId('use-cloud-radio').isChecked()).toBe(true);
    expect(await error().count()).toBe(0);
    expect(await ui.page.getByTestId('restart-note').count()).toBe(0);
    await screenshotBothThemes(ui.page, join(screenshotsDir, '28-cloud-in-use'));

    // And back to the embedded library, at once.
    await ui.page.getByTestId('use-embedded').click();
    await expect.poll(detail, { timeout: 30_000 }).toContain('Connected to the embedded service');
  }, 120_000);
});
