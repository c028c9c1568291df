import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { channelNames } from '../../src/shared/contract';
import { openWatchedPage, skipBrowserTests } from '../helpers/chromium';
import { addFolderInPage, makeLateTextVideo, screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * Whether a hit card's keyframe has loaded. It is downloaded through the library API on first sight, which takes
 * seconds on a loaded machine: poll it with a timeout to match.
 */
const keyframeShown = (card: Locator): Promise<boolean> =>
  card
    .locator('img')
    .evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0);

/** Drops, clips, export, then the library service stopped: clips, cached keyframes and the last results still work. */
describe.skipIf(skipBrowserTests)(
  'clips and offline browsing in headless web mode (Chromium, embedded service)',
  () => {
    const ui = uiSession({
      prepare: async (running) => {
        makeLateTextVideo(join(running.footageDir, 'harbour-late.mp4'), 1);
      },
    });
    const shot = (name: string) => ui.page.screenshot({ path: join(screenshotsDir, `${name}.png`) });
    const videoState = () =>
      ui.page
        .getByTestId('clip-video')
        .evaluate((v: { readyState: number; duration: number }) => ({ ready: v.readyState, duration: v.duration }));

    it('adds a folder by typed path and watches a dropped loose file on its own', async () => {
      await addFolderInPage(ui.page, ui.running.web.url, ui.running.footageDir);

      const loose = join(ui.running.dataDir, '..', 'loose.mp4');
      writeFileSync(loose, readFileSync(join(ui.running.footageDir, 'harbour-late.mp4')));
      const dt = await ui.page.evaluateHandle((text: string) => {
        // Runs in the page (the node tsconfig has no DOM lib).
        const Ctor = (
          globalThis as unknown as { DataTransfer: new () => { setData(type: string, data: string): void } }
        ).DataTransfer;
        const d = new Ctor();
        d.setData('text/plain', text);
        return d;
      }, `file://${loose}`);
      await ui.page.dispatchEvent('main', 'drop', { dataTransfer: dt });
      // The dropped path waits in the dialog's field (tags and options can be set) until Add.
      expect(await ui.page.getByLabel('Paths to add').inputValue()).toBe(loose);
      await ui.page.getByTestId('add-paths-dialog').getByRole('button', { name: 'Add', exact: true }).click();
      const watched = ui.page.locator('[data-testid="add-results"] [data-outcome="watching"]');
      await watched.waitFor();
      expect(await watched.textContent()).toContain('watched on its own');
      await shot('10-add-paths-dropped');
      await ui.page.keyboard.press('Escape');

      const row = ui.page.locator('[data-testid="file-row"][data-path$="harbour-late.mp4"]');
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 90_000, interval: 500 }).toBe('indexed');
    }, 120_000);

    it('saves a clip from a hit card with S and plays it from the Clips page', async () => {
      await ui.page.getByTestId('nav-search').click();
      await ui.page.getByLabel('Search the library').fill('harbour');
      await ui.page.keyboard.press('Enter');
      const card = ui.page.getByTestId('hit-card').first();
      await card.waitFor({ timeout: 20_000 });
      await expect.poll(() => keyframeShown(card), { timeout: 15_000 }).toBe(true);
      await card.click({ button: 'right' });
      await ui.page.getByTestId('hit-menu').waitFor();
      await shot('11-hit-context-menu');
      await ui.page.keyboard.press('Escape');
      await card.focus();
      await ui.page.keyboard.press('s');
      const dialog = ui.page.getByTestId('save-clip-dialog');
      await dialog.waitFor();
      expect(await ui.page.getByTestId('clip-cost').textContent()).toContain('free');
      await dialog.getByLabel('Clip tags').fill('keeper');
      await dialog.getByLabel('Clip tags').press('Enter');
      await shot('12-save-clip');
      await ui.page.getByTestId('save-clip-submit').click();
      await dialog.waitFor({ state: 'detached' });

      await ui.page.getByTestId('nav-clips').click();
      const clip = ui.page.getByTestId('clip-card').first();
      await expect.poll(() => clip.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
      expect(await ui.page.getByTestId('count-clips').textContent()).toBe('1');
      await expect.poll(async () => (await videoState()).ready, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      const clipPath = (await ui.page.getByTestId('clip-path').textContent()) ?? '';
      expect(clipPath).toContain(join(ui.running.dataDir, 'clips'));

      await ui.page.getByTestId('clip-notes').fill('opening shot for the harbour piece');
      await ui.page.getByLabel('Search clips').click();
      await ui.page.getByLabel('Search clips').fill('opening');
      await expect.poll(() => ui.page.getByTestId('clip-card').count()).toBe(1);
      await ui.page.getByLabel('Search clips').fill('nothing-like-this');
      await ui.page.getByTestId('clips-no-match').waitFor();
      await ui.page.getByLabel('Search clips').fill('');
      await ui.page.getByTestId('clip-card').first().waitFor();
      await shot('13-clips');
      // Right-click offers the file manager (not clicked here: this machine's real xdg-open would run; see reveal.test.ts).
      await ui.page.getByTestId('clip-card').first().click({ button: 'right' });
      const reveal = ui.page.getByTestId('clip-menu').getByRole('menuitem', { name: 'Show in Folder' });
      await reveal.waitFor();
      expect(await reveal.getAttribute('data-disabled')).toBeNull();
      await shot('13b-clip-menu');
      await ui.page.keyboard.press('Escape');
    }, 90_000);

    it('exports an EDL to a path the user sees', async () => {
      await ui.page.getByTestId('export-open').click();
      await ui.page.getByRole('tab', { name: 'EDL (CMX3600)' }).click();
      const file = await ui.page.getByTestId('export-file').inputValue();
      expect(file).toBe(join(ui.running.dataDir, 'exports', 'reelsync-clips.edl'));
      await ui.page.getByTestId('export-run').click();
      expect(await ui.page.getByTestId('export-done').textContent()).toContain(file);
      expect(readFileSync(file, 'utf8')).toMatch(/^TITLE: /m);
      await shot('14-export');
      // Exporting again never replaces the file: the dialog offers a new name instead.
      await ui.page.getByTestId('export-run').click();
      await ui.page.getByTestId('export-exists').waitFor();
      await shot('14b-export-exists');
      await ui.page.getByTestId('export-rename').click();
      expect(await ui.page.getByTestId('export-done').textContent()).toContain(
        join(ui.running.dataDir, 'exports', 'reelsync-clips (1).edl'),
      );
      // A path outside the allowed folders is refused with the reason.
      await ui.page.getByTestId('export-file').fill('/tmp/reelsync-markers.edl');
      await ui.page.getByTestId('export-run').click();
      expect(await ui.page.getByRole('alert').textContent()).toContain('outside the folders Reelsync may write to');
      await ui.page.keyboard.press('Escape');
      await ui.page.getByTestId('tab-downloads').click();
      await ui.page.getByTestId('downloads-empty').waitFor();
    });

    it('allows an output folder in Settings and refuses a system folder', async () => {
      await ui.page.getByTestId('nav-settings').click();
      const roots = ui.page.getByTestId('destination-roots');
      await roots.getByText(join(ui.running.dataDir, 'exports')).waitFor();
      await ui.page.locator('input[name="destination-path"]').fill('/etc');
      await ui.page.getByRole('button', { name: 'Allow folder' }).click();
      expect(await ui.page.getByRole('alert').textContent()).toContain('/etc is a system folder');
      const edits = join(ui.running.dataDir, '..', 'Edits');
      mkdirSync(edits, { recursive: true });
      await ui.page.locator('input[name="destination-path"]').fill(edits);
      await ui.page.getByRole('button', { name: 'Allow folder' }).click();
      await roots.getByText(edits).waitFor();
      await shot('14c-output-folders');
    });

    it('saves a clip into the clips folder chosen in Settings and plays it from the Clips page', async () => {
      const edits = realpathSync(join(ui.running.dataDir, '..', 'Edits'));
      const target = join(edits, 'Harbour', 'clips');
      await ui.page.getByTestId('nav-settings').click();
      await ui.page.getByLabel('Clips folder path').fill(target);
      await ui.page.getByTestId('clips-folder-save').click();
      await expect.poll(() => ui.page.getByTestId('clips-folder-path').textContent()).toBe(target);

      await ui.page.getByTestId('nav-search').click();
      await ui.page.getByLabel('Search the library').fill('harbour');
      await ui.page.keyboard.press('Enter');
      const card = ui.page.getByTestId('hit-card').first();
      await card.waitFor({ timeout: 20_000 });
      await card.focus();
      await ui.page.keyboard.press('s');
      await ui.page.getByTestId('save-clip-dialog').waitFor();
      await ui.page.getByTestId('save-clip-submit').click();
      await ui.page.getByTestId('save-clip-dialog').waitFor({ state: 'detached' });

      await ui.page.getByTestId('nav-clips').click();
      const ready = ui.page.locator('[data-testid="clip-card"][data-state="ready"]');
      await expect.poll(() => ready.count(), { timeout: 30_000 }).toBe(2);
      // The newest clip comes first: select it and play it with Space, as the editor does.
      await ui.page.getByTestId('clip-card').first().click();
      await expect.poll(() => ui.page.getByTestId('clip-path').textContent()).toContain(target);
      await ui.page.keyboard.press(' ');
      await expect
        .poll(() => ui.page.getByTestId('clip-video').evaluate((v: PlayingVideo) => v.currentTime), { timeout: 15_000 })
        .toBeGreaterThan(0.2);
      const video = await ui.page
        .getByTestId('clip-video')
        .evaluate((v: PlayingVideo) => ({ error: v.error?.code ?? null, paused: v.paused, src: v.currentSrc }));
      expect(video.error).toBeNull();
      expect(decodeURIComponent(video.src)).toContain(target);
      await shot('14d-clip-custom-folder');
      await ui.page.getByTestId('clip-video').evaluate((v: PlayingVideo) => v.pause());
      // Back to Reelsync's own folder for the steps after this one.
      await ui.page.getByTestId('nav-settings').click();
      await ui.page.getByRole('button', { name: 'Use Reelsync’s folder' }).click();
      await expect
        .poll(() => ui.page.getByTestId('clips-folder-path').textContent())
        .toBe(realpathSync(join(ui.running.dataDir, 'clips')));
    }, 90_000);

    it('sets the remote delete policy, which survives a reload', async () => {
      await ui.page.getByTestId('nav-settings').click();
      expect(await ui.page.getByTestId('policy-keep').isChecked()).toBe(true);
      // The radio shows what main saved: it turns on once settings:set has answered.
      await ui.page.getByTestId('policy-delete').click();
      await expect.poll(() => ui.page.getByTestId('policy-delete').isChecked()).toBe(true);
      await ui.page.reload();
      await ui.page.getByTestId('nav-settings').click();
      await expect.poll(() => ui.page.getByTestId('policy-delete').isChecked()).toBe(true);
      await shot('17-settings-policy');
    });

    it('as the desktop shell shows it: sets what closing the window does, saved through the contract', async () => {
      // A preload-shaped window.reelsync over the web server's routes: the renderer takes it for the Electron shell.
      const scriptErrors: string[] = [];
      const desk = await openWatchedPage(ui.browser, scriptErrors);
      await desk.addInitScript(
        ({ names, token }) => {
          type Source = {
            addEventListener(e: string, h: (m: { data: string }) => void): void;
            removeEventListener(e: string, h: (m: { data: string }) => void): void;
          };
          const g = globalThis as unknown as { reelsync?: unknown; EventSource: new (url: string) => Source };
          const rpc = async (channel: string, req: unknown) =>
            (
              await fetch(`/api/rpc/${channel}`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-reelsync-token': token },
                body: JSON.stringify(req ?? {}),
              })
            ).json();
          let source: Source | undefined;
          g.reelsync = {
            call: Object.fromEntries(names.map((c) => [c, (req: unknown) => rpc(c, req)])),
            on: (event: string, listener: (payload: unknown) => void) => {
              const handler = (m: { data: string }) => listener(JSON.parse(m.data));
              source ??= new g.EventSource(`/api/events?token=${encodeURIComponent(token)}`);
              source.addEventListener(event, handler);
              return () => source?.removeEventListener(event, handler);
            },
          };
        },
        { names: channelNames, token: ui.running.web.token },
      );
      const closeSetting = async () =>
        ((await ui.running.app.registry.invoke('settings:get', {})) as { value: { windowClose: string } }).value
          .windowClose;
      try {
        await desk.goto(new URL('/', ui.running.web.url).toString());
        await desk.getByTestId('nav-settings').click();
        await desk.getByRole('switch', { name: 'Launch at login' }).waitFor();
        expect(await desk.getByTestId('window-close-tray').isChecked()).toBe(true);
        expect(await closeSetting()).toBe('tray');
        await desk.getByTestId('window-close-quit').click();
        await expect.poll(() => desk.getByTestId('window-close-quit').isChecked()).toBe(true);
        expect(await closeSetting()).toBe('quit');
        await desk.reload();
        await desk.getByTestId('nav-settings').click();
        await expect.poll(() => desk.getByTestId('window-close-quit').isChecked()).toBe(true);
        await desk.getByTestId('window-close-tray').click();
        await expect.poll(() => desk.getByTestId('window-close-tray').isChecked()).toBe(true);
        expect(await closeSetting()).toBe('tray');
        await desk.screenshot({ path: join(screenshotsDir, '18-settings-desktop.png') });
        // Taking the page for the desktop app, the library's posters ask for the media protocol only Electron registers:
        // Chromium cannot load those, which says nothing about the renderer. Every other error still fails the step.
        expect(scriptErrors.filter((e) => !e.includes('net::ERR_UNKNOWN_URL_SCHEME'))).toEqual([]);
      } finally {
        await desk.close();
      }
    });

    it('with the library service stopped: says offline, shows the last results, and the clip still plays', async () => {
      await ui.running.app.connection.disconnect();
      await ui.page.reload();
      await expect
        .poll(() => ui.page.getByTestId('connection-state').textContent(), { timeout: 20_000 })
        .toContain('Offline: library service unreachable');

      await ui.page.getByTestId('nav-search').click();
      await ui.page.getByTestId('offline-banner').waitFor();
      expect(await ui.page.getByTestId('offline-banner').textContent()).toContain(
        'Offline — showing your last results',
      );
      const card = ui.page.getByTestId('hit-card').first();
      await card.waitFor();
      expect(await ui.page.getByTestId('results-count').textContent()).toContain('harbour');
      await expect.poll(() => keyframeShown(card), { timeout: 15_000 }).toBe(true);
      await shot('15-search-offline');

      await ui.page.getByTestId('nav-clips').click();
      await ui.page.getByTestId('clip-card').first().waitFor();
      await expect.poll(async () => (await videoState()).ready, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      expect(existsSync(join(ui.running.dataDir, 'clips'))).toBe(true);
      await shot('16-clips-offline');
      await ui.page.emulateMedia({ colorScheme: 'light' });
      await shot('18-clips-offline-light');
    }, 60_000);

    it('asks before deleting a clip: opens on Delete, Escape keeps the clip, focus stays inside, Enter deletes', async () => {
      const page = ui.page;
      await page.emulateMedia({ colorScheme: 'dark' });
      const cards = page.getByTestId('clip-card');
      await expect.poll(() => cards.count()).toBe(2);
      const focus = () =>
        page.evaluate(() => {
          const el = (
            globalThis as unknown as {
              document: {
                activeElement: { getAttribute(n: string): string | null; closest(s: string): unknown } | null;
              };
            }
          ).document.activeElement;
          return { testId: el?.getAttribute('data-testid') ?? null, inDialog: !!el?.closest('[role="dialog"]') };
        });
      const confirm = page.getByTestId('clip-delete-confirm');

      await page.getByTestId('clip-delete').click();
      await confirm.waitFor();
      await expect.poll(focus).toEqual({ testId: 'clip-delete-confirm', inDialog: true });
      await shot('19-clip-delete-confirm');
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      expect(await cards.count()).toBe(2);

      await page.getByTestId('clip-delete').click();
      await confirm.waitFor();
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        expect((await focus()).inDialog).toBe(true);
      }
      // Enter confirms from anywhere in the dialog but another button: here the "also delete the file" box.
      await page.getByRole('dialog').getByRole('checkbox').focus();
      await page.keyboard.press('Enter');
      await confirm.waitFor({ state: 'detached' });
      await expect.poll(() => cards.count()).toBe(1);
    });
  },
);

/** The few members of a video element the steps read (the node tsconfig has no DOM lib). */
interface PlayingVideo {
  currentTime: number;
  currentSrc: string;
  paused: boolean;
  error: { code: number } | null;
  pause(): void;
}
