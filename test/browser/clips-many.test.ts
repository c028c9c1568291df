import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClipsStore } from '../../src/main/library/clips-store';
import { openDatabase } from '../../src/main/store/database';
import { skipBrowserTests } from '../helpers/chromium';
import { screenshotsDir, uiSession } from '../helpers/ui-app';

const CLIPS = 620; // more than one page of clips:list and clips:search (500 each)
const name = (i: number): string => `Harbour take ${String(i).padStart(3, '0')}`;

/**
 * A project with more clips than one page: the Clips page used to read the newest 500 and stop, so the oldest clips
 * could not be seen, searched, selected or exported. The clips are written into the app's own database as the
 * editor's past sessions left them (cut earlier, their library copies since gone), so the test needs no media.
 */
describe.skipIf(skipBrowserTests)('a Clips page with more clips than one page (Chromium, web mode)', () => {
  const ui = uiSession({
    viewport: { width: 1280, height: 800 },
    prepare: ({ dataDir }) => {
      const db = openDatabase(join(dataDir, 'reelsync.db'));
      const store = new ClipsStore(db);
      db.transaction(() => {
        for (let i = 1; i <= CLIPS; i++) {
          const clip = store.create(
            {
              videoNo: `v${i}`,
              videoName: `harbour-${i}.mov`,
              name: name(i),
              start: 1,
              end: 3,
              handles: 0,
              mode: 'copy',
              format: 'mov',
              outDir: dataDir,
              outName: null,
              query: 'boats at dawn',
              searchType: 'BY_CLIP',
              text: i % 2 === 0 ? 'gulls over the quay' : 'a ferry leaves',
              score: 0.5,
              video: null,
              keyframe: null,
              tags: i <= 10 ? ['select'] : [],
              notes: '',
            },
            1_700_000_000_000 + i * 1000,
          );
          store.setState(clip.id, 'failed', 'The library copy is no longer there.');
        }
      })();
      db.close();
    },
  });
  const cards = () => ui.page.getByTestId('clip-card');
  const count = () => ui.page.getByTestId('selection-count').textContent();
  // The last cards stay on screen until a new search's results come: select all until it takes the new ones.
  const selectAll = async (): Promise<string | null> => {
    await cards().first().click();
    await ui.page.keyboard.press('ControlOrMeta+a');
    return count();
  };
  const shot = (file: string) => ui.page.screenshot({ path: join(screenshotsDir, `${file}.png`) });

  it('lists, searches and selects every clip, adding cards as the grid scrolls', async () => {
    await ui.page.goto(ui.running.web.url);
    await ui.page.getByTestId('nav-clips').click();
    await expect.poll(() => ui.page.getByTestId('count-clips').textContent()).toBe(String(CLIPS));
    await cards().first().waitFor();
    expect(await cards().first().textContent()).toContain(name(CLIPS));
    const first = await cards().count();
    expect(first).toBeLessThan(CLIPS);

    // Scrolling to the end of the grid adds cards until the oldest clip, beyond the first page of 500, is there.
    const oldest = ui.page.locator(`[data-testid="clip-card"]:has-text("${name(1)}")`);
    await expect
      .poll(
        async () => {
          await cards().last().scrollIntoViewIfNeeded();
          return oldest.count();
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(1);
    expect(await cards().count()).toBe(CLIPS);
    await shot('33-clips-many-end');

    // Ctrl/Cmd-A takes every clip, the ones never rendered too.
    await expect.poll(selectAll).toBe(`${CLIPS} clips selected`);
    await ui.page.keyboard.press('Escape');

    // The local search reads past its first 500 matches: every clip says "ferry" or "gulls".
    await ui.page.getByLabel('Search clips').fill('gulls');
    await expect.poll(selectAll).toBe(`${CLIPS / 2} clips selected`);
    await ui.page.getByLabel('Search clips').fill('harbour');
    await expect.poll(selectAll).toBe(`${CLIPS} clips selected`);
    await shot('34-clips-many-search');
  }, 120_000);
});
