import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { startModelHub, type ModelHub } from '../helpers/model-hub';
import { serviceUiSession } from '../helpers/service-ui-session';
import { tinyClipFiles } from '../helpers/tiny-clip/tiny-clip';

const artifacts = join(import.meta.dirname, '../../test-artifacts/screenshots');
const REPO = 'tests/tiny-clip';

/** Settings shows whether semantic search is on, and downloads the model with a progress bar (local model host). */
describe.skipIf(skipBrowserTests)('Settings: the semantic model (headless web mode, Chromium)', () => {
  let hub: ModelHub | undefined;
  const session = serviceUiSession({
    service: async () => {
      hub = await startModelHub(REPO, tinyClipFiles());
      return { config: { semantic: { host: hub.url, model: REPO } } };
    },
    after: async () => hub?.close(),
  });
  const theHub = (): ModelHub => {
    if (!hub) throw new Error('the model hub is not started');
    return hub;
  };

  const state = () => session.page.getByTestId('semantic-state').textContent();

  it('says what the model costs before downloading, and Search offers it beside keyword-only results', async () => {
    await session.page.getByTestId('nav-settings').click();
    await expect.poll(state).toBe('semantic search: off (model not downloaded)');
    // The size the host states for its files, and the time at 100 Mbit/s, before a byte is downloaded.
    const total = [...tinyClipFiles().values()].reduce((n, d) => n + d.length, 0);
    const card = session.page.getByTestId('semantic-model');
    await expect.poll(() => card.textContent(), { timeout: 20_000 }).toContain('at 100 Mbit/s');
    expect(theHub().requests.filter((r) => r.method === 'GET')).toEqual([]);
    expect(total).toBeGreaterThan(0);
    await card.scrollIntoViewIfNeeded();
    await screenshotBothThemes(session.page, join(artifacts, 'settings-semantic-off'));

    // Search says the results match words only, with the model one click away; an empty result says it may find it.
    await session.page.getByTestId('nav-search').click();
    await session.page.getByLabel('Search the library').fill('a dog on a beach');
    await session.page.keyboard.press('Enter');
    await session.page.getByTestId('search-no-results').waitFor();
    const hint = session.page.getByTestId('semantic-hint');
    expect(await hint.textContent()).toContain('The semantic model may find it.');
    expect(await hint.textContent()).toContain('at 100 Mbit/s');
    await screenshotBothThemes(session.page, join(artifacts, '30-search-semantic-hint'));
    await session.page.getByTestId('nav-settings').click();
  });

  it('cancels a download under way, and Download starts it again', async () => {
    theHub().faults = { slow: { chunk: 32, delayMs: 40 } };
    await session.page.getByTestId('semantic-download').click();
    await expect.poll(state, { timeout: 20_000 }).toMatch(/^semantic search: downloading/);
    await session.page.getByTestId('semantic-cancel').click();
    await expect.poll(state, { timeout: 20_000 }).toBe('semantic search: off (model not downloaded)');
    await session.page.getByTestId('semantic-download').waitFor();
  });

  it('shows the download progress until it is on', async () => {
    // Slow enough (~6 s for the 23.5 KB model) for the bar to be seen moving.
    theHub().faults = { slow: { chunk: 160, delayMs: 40 } };
    await session.page.getByRole('button', { name: 'Download model' }).click();
    const bar = session.page
      .getByTestId('semantic-model')
      .getByRole('progressbar', { name: 'Semantic model download' });
    await bar.waitFor();
    await expect.poll(state, { timeout: 20_000 }).toMatch(/^semantic search: downloading tests\/tiny-clip \d+%$/);
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await screenshotBothThemes(session.page, join(artifacts, 'settings-semantic-downloading'));
    await expect.poll(state, { timeout: 60_000 }).toBe('semantic search: on (tests/tiny-clip)');
    expect(await bar.count()).toBe(0);
    expect(await session.page.getByRole('button', { name: 'Download model' }).count()).toBe(0);
    await screenshotBothThemes(session.page, join(artifacts, 'settings-semantic-ready'));
  });
});
