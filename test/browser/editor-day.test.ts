import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { addFromSettings, makeTitledVideo, screenshotsDir, uiSession } from '../helpers/ui-app';

/** Footage that is not 16:9: a PAL 4:3 frame and a 9:16 phone clip, both with words the indexer reads. */
const SOURCES = {
  pal: { file: 'pal-harbour.mp4', width: 768, height: 576, fps: 25, fontSize: 72 },
  phone: { file: 'phone-harbour.mp4', width: 360, height: 640, fps: 30, fontSize: 56 },
} as const;

/** An editor's first day, issue 17: non-16:9 footage, player keys, timecode, the save dialog, focus, theme, no console errors. */
describe.skipIf(skipBrowserTests)("an editor's first day in headless web mode (Chromium, embedded service)", () => {
  const ui = uiSession({
    prepare: async (running) => {
      for (const s of Object.values(SOURCES))
        makeTitledVideo(join(running.footageDir, s.file), { ...s, seconds: 4, text: 'HARBOUR' });
    },
  });
  const shot = (name: string): Promise<void> => screenshotBothThemes(ui.page, join(screenshotsDir, name));
  const video = () => ui.page.getByTestId('player-video');
  const playerTime = async () => (await ui.page.getByTestId('player-time').textContent()) ?? '';
  /** Pauses (K from playing) and waits until the shown timecode is the paused frame's. */
  const stopAt = async (seconds?: number): Promise<void> => {
    if ((await ui.page.getByTestId('player-shuttle').textContent()) !== 'Stopped') await ui.page.keyboard.press('k');
    await expect.poll(() => ui.page.getByTestId('player-shuttle').textContent()).toBe('Stopped');
    if (seconds !== undefined) {
      await video().evaluate((v: VideoLike, t: number) => {
        v.currentTime = t;
      }, seconds);
      await expect.poll(() => video().evaluate((v: VideoLike) => v.currentTime)).toBe(seconds);
    }
  };
  const focused = () =>
    ui.page.evaluate(() => {
      const el = (
        globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }
      ).document.activeElement;
      return {
        testId: el?.getAttribute('data-testid') ?? null,
        selected: el?.getAttribute('aria-selected') ?? null,
        label: el?.getAttribute('aria-label') ?? null,
      };
    });

  it('watches a folder of 4:3 and 9:16 footage and indexes it', async () => {
    await ui.page.goto(ui.running.web.url);
    await addFromSettings(ui.page, ui.running.footageDir);
    await ui.page.getByTestId('nav-library').click();
    for (const s of Object.values(SOURCES)) {
      const row = ui.page.locator(`[data-testid="file-row"][data-path$="${s.file}"]`);
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 120_000, interval: 500 }).toBe('indexed');
    }
    await shot('20-library');
  }, 180_000);

  it('letterboxes 4:3 and 9:16 footage in the player with the controls on screen', async () => {
    await ui.page.keyboard.press('/');
    const search = ui.page.getByLabel('Search the library');
    await expect.poll(() => focused()).toMatchObject({ label: 'Search the library' });
    await search.fill('harbour');
    await ui.page.keyboard.press('Enter');
    for (const [name, s] of Object.entries(SOURCES)) {
      const card = ui.page.locator(`[data-testid="hit-card"]`).filter({ hasText: s.file }).first();
      await card.waitFor({ timeout: 20_000 });
      await card.dblclick();
      await ui.page.getByTestId('player').waitFor();
      await expect
        .poll(() => video().evaluate((v: VideoLike) => v.readyState), { timeout: 15_000 })
        .toBeGreaterThanOrEqual(2);
      const fit = await video().evaluate((v: VideoLike) => {
        const stage = v.parentElement?.getBoundingClientRect();
        const box = v.getBoundingClientRect();
        const g = globalThis as unknown as {
          innerWidth: number;
          innerHeight: number;
          getComputedStyle(e: VideoLike): { objectFit: string };
        };
        return {
          stage,
          box: {
            left: box.left,
            top: box.top,
            right: box.right,
            bottom: box.bottom,
            width: box.width,
            height: box.height,
          },
          vw: g.innerWidth,
          vh: g.innerHeight,
          objectFit: g.getComputedStyle(v).objectFit,
          w: v.videoWidth,
          h: v.videoHeight,
        };
      });
      expect(fit.w / fit.h).toBeCloseTo(s.width / s.height, 2);
      // The element (which carries the native controls along its bottom) sits inside the stage and the window.
      expect(fit.box.left).toBeGreaterThanOrEqual((fit.stage?.left ?? 0) - 0.5);
      expect(fit.box.right).toBeLessThanOrEqual((fit.stage?.right ?? 0) + 0.5);
      expect(fit.box.top).toBeGreaterThanOrEqual((fit.stage?.top ?? 0) - 0.5);
      expect(fit.box.bottom).toBeLessThanOrEqual((fit.stage?.bottom ?? 0) + 0.5);
      expect(fit.box.bottom).toBeLessThanOrEqual(fit.vh);
      expect(fit.box.right).toBeLessThanOrEqual(fit.vw);
      // The whole picture shows: letterboxed (contain), its drawn size inside the element.
      expect(fit.objectFit).toBe('contain');
      const scale = Math.min(fit.box.width / fit.w, fit.box.height / fit.h);
      expect(fit.w * scale).toBeLessThanOrEqual(fit.box.width + 0.5);
      expect(fit.h * scale).toBeLessThanOrEqual(fit.box.height + 0.5);
      expect(fit.h * scale).toBeGreaterThan(200);
      await ui.page.keyboard.press('k');
      await shot(`21-player-${name}`);
      await ui.page.keyboard.press('Escape');
      await ui.page.getByTestId('player').waitFor({ state: 'detached' });
    }
  }, 90_000);

  it('answers NLE keys: Space/K, J/L shuttle, frame steps, timeline arrows, M remembered, SMPTE timecode', async () => {
    const card = ui.page.locator(`[data-testid="hit-card"]`).filter({ hasText: SOURCES.pal.file }).first();
    await card.click();
    await ui.page.keyboard.press('Enter');
    await expect
      .poll(() => video().evaluate((v: VideoLike) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    const shuttle = ui.page.getByTestId('player-shuttle');
    await stopAt(1);
    expect(await video().evaluate((v: VideoLike) => v.paused)).toBe(true);
    expect(await playerTime()).toMatch(/^\d{2}:\d{2}:\d{2}:\d{2}$/);

    // Frame steps at the video's 25 fps: the frame field moves by exactly one.
    const frameOf = (tc: string): number => {
      const [h, m, s, f] = tc.split(':').map(Number) as [number, number, number, number];
      return ((h * 60 + m) * 60 + s) * 25 + f;
    };
    await expect.poll(() => playerTime()).toBe('00:00:01:00');
    // Only our controls: no second timeline, play button and clock from the browser (issue 28 item 3).
    expect(await video().getAttribute('controls')).toBeNull();
    await ui.page.getByTestId('player-play').waitFor();
    // The first step after a stop mid-frame moves one frame from the frame on screen, not two.
    await stopAt(1.03);
    await expect.poll(() => playerTime()).toBe('00:00:01:00');
    await ui.page.keyboard.press('ArrowRight');
    await expect.poll(() => playerTime()).toBe('00:00:01:01');
    await ui.page.keyboard.press('ArrowLeft');
    await expect.poll(() => playerTime()).toBe('00:00:01:00');
    const before = frameOf(await playerTime());
    await ui.page.keyboard.press('ArrowRight');
    await expect.poll(async () => frameOf(await playerTime())).toBe(before + 1);
    await ui.page.keyboard.press('.');
    await expect.poll(async () => frameOf(await playerTime())).toBe(before + 2);
    await ui.page.keyboard.press(',');
    await expect.poll(async () => frameOf(await playerTime())).toBe(before + 1);

    // The timeline is a slider: arrows a frame, Shift+arrow a second, Home and End.
    await ui.page.getByTestId('timeline').focus();
    await ui.page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => frameOf(await playerTime())).toBe(before + 26);
    await ui.page.keyboard.press('ArrowLeft');
    await expect.poll(async () => frameOf(await playerTime())).toBe(before + 25);
    await ui.page.keyboard.press('Home');
    await expect.poll(() => playerTime()).toBe('00:00:00:00');
    expect(await ui.page.getByTestId('timeline').getAttribute('aria-valuetext')).toBe('00:00:00:00');

    // Space plays; L faster; J slower, then backwards; K stops.
    await ui.page.keyboard.press(' ');
    await expect.poll(() => shuttle.textContent()).toBe('▶ 1×');
    expect(await video().evaluate((v: VideoLike) => v.paused)).toBe(false);
    await ui.page.keyboard.press('l');
    await expect.poll(() => shuttle.textContent()).toBe('▶ 2×');
    expect(await video().evaluate((v: VideoLike) => v.playbackRate)).toBe(2);
    await ui.page.keyboard.press('j');
    await expect.poll(() => shuttle.textContent()).toBe('▶ 1×');
    await stopAt(3);
    await ui.page.keyboard.press('j');
    await expect.poll(() => shuttle.textContent()).toBe('◀ 1×');
    await expect.poll(() => video().evaluate((v: VideoLike) => v.currentTime), { timeout: 5_000 }).toBeLessThan(2.8);
    expect(await video().evaluate((v: VideoLike) => v.paused)).toBe(true);
    // The timecode and the playhead follow reverse play (they froze before: a paused video sends no timeupdate).
    await expect.poll(async () => frameOf(await playerTime()), { timeout: 5_000 }).toBeLessThan(3 * 25 - 10);
    const reversing = await ui.page.getByTestId('timeline').getAttribute('aria-valuetext');
    expect(frameOf(reversing ?? '')).toBeLessThan(3 * 25 - 10);
    await ui.page.keyboard.press('k');
    await expect.poll(() => shuttle.textContent()).toBe('Stopped');
    const stoppedAt = await video().evaluate((v: VideoLike) => v.currentTime);
    await ui.page.waitForTimeout(300);
    expect(await video().evaluate((v: VideoLike) => v.currentTime)).toBe(stoppedAt);
    // K stops; it never starts playing (it did, as a toggle).
    await ui.page.keyboard.press('k');
    await ui.page.waitForTimeout(300);
    expect(await shuttle.textContent()).toBe('Stopped');
    expect(await video().evaluate((v: VideoLike) => v.paused)).toBe(true);
    // K held: a tap of L steps one frame; L held plays at a quarter speed until it is let go.
    await stopAt(2);
    await expect.poll(() => playerTime()).toBe('00:00:02:00');
    await ui.page.keyboard.down('k');
    await ui.page.keyboard.press('l');
    await expect.poll(() => playerTime()).toBe('00:00:02:01');
    await ui.page.keyboard.press('j');
    await expect.poll(() => playerTime()).toBe('00:00:02:00');
    await ui.page.keyboard.down('l');
    await ui.page.keyboard.down('l');
    await expect.poll(() => shuttle.textContent()).toBe('▶ ¼×');
    expect(await video().evaluate((v: VideoLike) => v.playbackRate)).toBe(0.25);
    await ui.page.keyboard.up('l');
    await expect.poll(() => shuttle.textContent()).toBe('Stopped');
    await ui.page.keyboard.up('k');

    // M mutes and unmutes, and the choice survives a reload.
    const remembered = () =>
      ui.page.evaluate(() =>
        (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(
          'reelsync.player.muted',
        ),
      );
    const wasMuted = await video().evaluate((v: VideoLike) => v.muted);
    await ui.page.keyboard.press('m');
    await expect.poll(() => video().evaluate((v: VideoLike) => v.muted)).toBe(!wasMuted);
    expect(await remembered()).toBe(wasMuted ? '0' : '1');
    await ui.page.keyboard.press('m');
    await expect.poll(() => video().evaluate((v: VideoLike) => v.muted)).toBe(wasMuted);
    if (!wasMuted) await ui.page.keyboard.press('m');
    await expect.poll(remembered).toBe('1');
    await ui.page.reload();
    await ui.page.getByTestId('nav-search').click();
    await ui.page.getByLabel('Search the library').fill('harbour');
    await ui.page.keyboard.press('Enter');
    await ui.page.locator(`[data-testid="hit-card"]`).filter({ hasText: SOURCES.pal.file }).first().dblclick();
    await expect
      .poll(() => video().evaluate((v: VideoLike) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    expect(await video().evaluate((v: VideoLike) => v.muted)).toBe(true);
    expect(await ui.page.getByTestId('player-mute').getAttribute('aria-pressed')).toBe('true');
    await ui.page.getByTestId('player-mute').click();
    await expect.poll(remembered).toBe('0');
    expect(await video().evaluate((v: VideoLike) => v.muted)).toBe(false);
  }, 90_000);

  it('saves a clip with SMPTE in/out and a name; the next clip starts from a clean dialog', async () => {
    await stopAt(1.02);
    await ui.page.keyboard.press('i');
    await stopAt(2.5);
    await ui.page.keyboard.press('o');
    expect(await ui.page.getByTestId('in-out').textContent()).toBe('In 00:00:01:00 · Out 00:00:02:12');
    await ui.page.keyboard.press('s');
    const dialog = ui.page.getByTestId('save-clip-dialog');
    await dialog.waitFor();
    await expect.poll(() => ui.page.getByTestId('clip-in').inputValue()).toBe('00:00:01:00');
    expect(await ui.page.getByTestId('clip-out').inputValue()).toBe('00:00:02:12');
    await ui.page.getByTestId('clip-name-input').fill('Harbour sign, PAL');
    await dialog.getByLabel('Clip tags').fill('pal-only');
    await dialog.getByLabel('Clip tags').press('Enter');
    await dialog.getByLabel('Clip notes').fill('for the opening');
    await shot('22-save-clip');
    await ui.page.getByTestId('save-clip-submit').click();
    await dialog.waitFor({ state: 'detached' });
    // One toast per save: the outcome.
    await ui.page.locator('.toast').filter({ hasText: 'Clip saved' }).waitFor({ timeout: 30_000 });
    expect(await ui.page.locator('.toast').count()).toBe(1);

    // From the results grid, another clip of the other video: nothing of the last one carries over.
    await ui.page.keyboard.press('Escape');
    const phoneCard = ui.page.locator(`[data-testid="hit-card"]`).filter({ hasText: SOURCES.phone.file }).first();
    await expect.poll(() => focused()).toMatchObject({ testId: 'hit-card', selected: 'true' });
    await phoneCard.click();
    await ui.page.keyboard.press('s');
    await dialog.waitFor();
    expect(await ui.page.getByTestId('clip-name-input').inputValue()).toBe('');
    expect(await dialog.getByLabel('Clip notes').inputValue()).toBe('');
    expect(await dialog.getByTestId('tag-editor').locator('.tag-chip').count()).toBe(0);
    // Timecode at this video's 30 fps, m:ss.d and seconds are all accepted; a frame past the rate is not.
    await ui.page.getByTestId('clip-in').fill('00:00:00:29');
    await expect.poll(() => ui.page.getByTestId('clip-range-summary').textContent()).toMatch(/^00:00:00:29 – /);
    await ui.page.getByTestId('clip-in').fill('00:00:00:30');
    expect(await ui.page.getByTestId('save-clip-submit').isDisabled()).toBe(true);
    await ui.page.getByTestId('clip-in').fill('0.5');
    await ui.page.getByTestId('clip-out').fill('0:02.5');
    await expect
      .poll(() => ui.page.getByTestId('clip-range-summary').textContent())
      .toBe('00:00:00:15 – 00:00:02:15 · 2.00 s');
    await ui.page.getByTestId('clip-name-input').fill('Quayside vertical');
    await ui.page.getByTestId('clip-name-input').press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // Focus goes back to the card the dialog came from.
    await expect.poll(() => focused()).toMatchObject({ testId: 'hit-card', selected: 'true' });
    expect(await phoneCard.getAttribute('aria-selected')).toBe('true');

    // Space previews; closing the preview puts the focus back on the card.
    await ui.page.keyboard.press(' ');
    await ui.page.getByTestId('preview-dialog').waitFor();
    await ui.page.keyboard.press('Escape');
    await ui.page.getByTestId('preview-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => focused()).toMatchObject({ testId: 'hit-card', selected: 'true' });
    expect(await phoneCard.getAttribute('aria-selected')).toBe('true');
    await ui.page.keyboard.press('Control+k');
    await expect.poll(() => focused()).toMatchObject({ label: 'Search the library' });
    await shot('23-search');
  }, 90_000);

  it('lists named clips, finds them by name, moves by row with Up/Down, and its dropdowns break no CSP', async () => {
    // Two more clips, so the grid has more than one row.
    for (const name of ['Third', 'Fourth']) {
      await ui.page.locator('[data-testid="hit-card"]').first().click();
      await ui.page.keyboard.press('s');
      await ui.page.getByTestId('clip-name-input').fill(name);
      await ui.page.getByTestId('clip-name-input').press('Enter');
      await ui.page.getByTestId('save-clip-dialog').waitFor({ state: 'detached' });
    }
    await ui.page.getByTestId('nav-clips').click();
    const cards = ui.page.getByTestId('clip-card');
    await expect.poll(() => cards.count()).toBe(4);
    for (let i = 0; i < 4; i++)
      await expect.poll(() => cards.nth(i).getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    const names = await cards.locator('.hit-name').allTextContents();
    expect(names.sort()).toEqual(['Fourth', 'Harbour sign, PAL', 'Quayside vertical', 'Third']);
    const pal = cards.filter({ hasText: 'Harbour sign, PAL' });
    await pal.click();
    await ui.page.getByTestId('clip-detail').getByText('pal-only').waitFor();
    expect(await ui.page.getByTestId('clip-name').inputValue()).toBe('Harbour sign, PAL');

    // Up/Down move by a whole row of the laid-out grid.
    const columns = await cards.evaluateAll(
      (els: { offsetTop: number }[]) => els.filter((e) => e.offsetTop === els[0]?.offsetTop).length,
    );
    expect(columns).toBeGreaterThan(1);
    expect(columns).toBeLessThan(4);
    await cards.first().click();
    await ui.page.keyboard.press('ArrowDown');
    await expect.poll(() => cards.nth(columns).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => focused()).toMatchObject({ testId: 'clip-card', selected: 'true' });
    await ui.page.keyboard.press('ArrowUp');
    await expect.poll(() => cards.first().getAttribute('aria-selected')).toBe('true');

    // The phone clip plays letterboxed in the clip pane.
    await cards.filter({ hasText: 'Quayside vertical' }).click();
    const clipVideo = ui.page.getByTestId('clip-video');
    await expect
      .poll(() => clipVideo.evaluate((v: VideoLike) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    const pane = await clipVideo.evaluate((v: VideoLike) => {
      const stage = v.parentElement?.getBoundingClientRect();
      const box = v.getBoundingClientRect();
      return {
        stageBottom: stage?.bottom ?? 0,
        stageRight: stage?.right ?? 0,
        bottom: box.bottom,
        right: box.right,
        ratio: v.videoWidth / v.videoHeight,
      };
    });
    expect(pane.ratio).toBeCloseTo(9 / 16, 2);
    // The clip file is named after the clip.
    expect(await ui.page.getByTestId('clip-path').textContent()).toMatch(
      /\/Quayside vertical_0s50-2s50\.mp4 · 360×640/,
    );
    expect(pane.bottom).toBeLessThanOrEqual(pane.stageBottom + 0.5);
    expect(pane.right).toBeLessThanOrEqual(pane.stageRight + 0.5);

    // Search by name, then open a Radix dropdown (the tag filter): no CSP violation (afterEach checks).
    await ui.page.getByLabel('Search clips').fill('quayside');
    await expect.poll(() => cards.count()).toBe(1);
    await ui.page.getByLabel('Search clips').fill('');
    await expect.poll(() => cards.count()).toBe(4);
    await ui.page.getByRole('combobox', { name: 'Tag' }).click();
    await ui.page.getByRole('option', { name: 'pal-only' }).waitFor();
    await ui.page.keyboard.press('Escape');
    await shot('24-clips');
  }, 120_000);

  it('sets the theme in Settings: light, dark or the system, native controls included, and no developer words', async () => {
    await ui.page.getByTestId('nav-settings').click();
    const theme = () =>
      ui.page.evaluate(() => {
        const g = globalThis as unknown as {
          document: {
            documentElement: { dataset: { theme?: string } };
            body: unknown;
            querySelector(s: string): unknown;
          };
          getComputedStyle(e: unknown): { colorScheme: string; backgroundColor: string };
        };
        return {
          attr: g.document.documentElement.dataset.theme ?? 'system',
          body: g.getComputedStyle(g.document.body).backgroundColor,
          select: g.getComputedStyle(g.document.querySelector('select, input')).colorScheme,
        };
      });
    expect(await ui.page.getByTestId('theme-system').isChecked()).toBe(true);
    await ui.page.getByTestId('theme-light').click();
    await expect.poll(theme).toMatchObject({ attr: 'light', body: 'rgb(244, 244, 246)' });
    await ui.page.screenshot({ path: join(screenshotsDir, '25-settings-light.png') });
    await ui.page.getByTestId('theme-dark').click();
    await expect.poll(theme).toMatchObject({ attr: 'dark', body: 'rgb(15, 16, 18)' });
    // Native controls follow: the select's color-scheme is dark even with the system asking for light.
    await ui.page.emulateMedia({ colorScheme: 'light' });
    expect(await theme()).toMatchObject({ body: 'rgb(15, 16, 18)', select: 'dark' });
    expect(
      await ui.page.evaluate(
        () =>
          (globalThis as unknown as { matchMedia(q: string): { matches: boolean } }).matchMedia(
            '(prefers-color-scheme: light)',
          ).matches,
      ),
    ).toBe(true);
    await ui.page.screenshot({ path: join(screenshotsDir, '26-settings-dark-on-light-system.png') });
    await ui.page.reload();
    await ui.page.getByTestId('nav-settings').click();
    await expect.poll(() => ui.page.getByTestId('theme-dark').isChecked()).toBe(true);
    expect((await theme()).body).toBe('rgb(15, 16, 18)');
    await ui.page.getByTestId('theme-system').click();
    await expect.poll(theme).toMatchObject({ attr: 'system', body: 'rgb(244, 244, 246)', select: 'light dark' });
    await ui.page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(theme).toMatchObject({ body: 'rgb(15, 16, 18)' });
    await shot('27-settings');
    const words = await ui.page.locator('main, .status-bar').allInnerTexts();
    for (const bad of [/folder id/i, /endpoint/i, /no shortage reported/i]) expect(words.join('\n')).not.toMatch(bad);
  });
});

/** The few DOM members the page functions read (the node tsconfig has no DOM lib). */
interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}
interface VideoLike {
  readyState: number;
  currentTime: number;
  paused: boolean;
  muted: boolean;
  playbackRate: number;
  videoWidth: number;
  videoHeight: number;
  parentElement: { getBoundingClientRect(): Rect } | null;
  getBoundingClientRect(): Rect;
}
