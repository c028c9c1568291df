import { copyFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { addFolderInPage, screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * The library as an editor browses it (issue 17 item 2): each file's picture and facts read at validation (duration,
 * resolution, fps, codec, camera), sorted and filtered by main in SQL, Enter plays, right-click offers the file's actions.
 */
describe.skipIf(skipBrowserTests)('library browser (Chromium, web mode, embedded service)', () => {
  const ui = uiSession({
    viewport: { width: 1440, height: 820 },
    errorCheck: 'by-the-test',
  });
  const rows = () => ui.page.locator('[data-testid="file-row"]');
  const names = async (): Promise<string[]> => {
    const out: string[] = [];
    for (const r of await rows().all()) out.push((await r.getAttribute('data-path'))?.split('/').pop() ?? '');
    return out;
  };
  const withCodec = async (): Promise<number> => {
    let n = 0;
    for (const r of await rows().all()) if (await r.getAttribute('data-codec')) n++;
    return n;
  };
  /** The decoded picture's width: 0 until the browser has decoded the media. */
  const videoWidth = (l: Locator): Promise<number> =>
    l.evaluate((v) => (v as unknown as { videoWidth: number }).videoWidth);
  const row = (name: string) => ui.page.locator(`[data-testid="file-row"][data-path$="/${name}"]`);
  const shot = (name: string): Promise<void> => screenshotBothThemes(ui.page, join(screenshotsDir, name));

  it('shows each file with its picture and facts, sorts by duration and filters by codec in main, plays on Enter, and offers a context menu', async () => {
    await addFolderInPage(ui.page, ui.running.web.url, ui.running.footageDir);
    copyFileSync(fixturePath('phoneH264Mp4'), join(ui.running.footageDir, 'phone.mp4'));
    copyFileSync(fixturePath('hevcMov'), join(ui.running.footageDir, 'hevc.mov'));
    copyFileSync(fixturePath('vp9Mkv'), join(ui.running.footageDir, 'bars.mkv'));
    copyFileSync(fixturePath('drawnTextMp4'), join(ui.running.footageDir, 'title.mp4'));

    // Facts arrive with validation: wait until every row has its codec.
    await expect.poll(withCodec, { timeout: 60_000, interval: 500 }).toBe(4);
    expect(await row('phone.mp4').getByTestId('fact-duration').textContent()).toBe('0:03');
    expect(await row('phone.mp4').textContent()).toContain('640×360');
    expect(await row('phone.mp4').textContent()).toContain('iPhone 15 Pro');
    expect(await row('title.mp4').textContent()).toContain('1280×720');
    expect(await row('hevc.mov').getByTestId('fact-codec').textContent()).toBe('HEVC');

    // The poster is the file's own picture: a small sprite image made from the local original (issue 28 item 6).
    const decoded = (name: string): Promise<number> =>
      row(name)
        .getByTestId('poster')
        .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    await expect.poll(() => decoded('bars.mkv'), { timeout: 15_000 }).toBe(8 * 192);
    await expect.poll(() => decoded('title.mp4'), { timeout: 15_000 }).toBe(8 * 192);
    // Hovering scrubs through its frames; leaving shows the poster frame again.
    const frame = () => row('title.mp4').getByTestId('poster').getAttribute('data-frame');
    const box = await row('title.mp4').locator('.poster-thumb').boundingBox();
    if (!box) throw new Error('no poster box');
    // The box shows exactly the poster frame of the sprite (frame 2 of 8), not a slice across two frames.
    const sprite = await row('title.mp4').getByTestId('poster').boundingBox();
    expect(sprite?.width).toBeCloseTo(box.width * 8, 0);
    expect((sprite?.x ?? 0) - box.x).toBeCloseTo(-2 * box.width, 0);
    await ui.page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2);
    await expect.poll(frame).toBe('7');
    await ui.page.mouse.move(box.x + 2, box.y + box.height / 2);
    await expect.poll(frame).toBe('0');
    await ui.page.mouse.move(box.x + box.width + 400, box.y + box.height / 2);
    await expect.poll(frame).toBe('2');
    // Sorting asks for no media: the rows' pictures are cached images, not <video> elements loading originals.
    const mediaRequests: string[] = [];
    const count = (r: { url(): string }): void => {
      if (r.url().includes('/api/media/')) mediaRequests.push(r.url());
    };
    ui.page.on('request', count);

    await ui.page.getByTestId('sort-duration').click();
    await expect.poll(async () => (await names()).slice(2)).toEqual(['phone.mp4', 'title.mp4']);
    expect(await ui.page.getByTestId('sort-duration').getAttribute('aria-sort')).toBe('ascending');
    await ui.page.getByTestId('sort-duration').click();
    await expect.poll(async () => (await names()).slice(0, 2)).toEqual(['title.mp4', 'phone.mp4']);
    expect(await ui.page.getByTestId('sort-duration').getAttribute('aria-sort')).toBe('descending');
    ui.page.off('request', count);
    expect(mediaRequests.filter((u) => u.includes('/api/media/file'))).toEqual([]);
    await shot('17-library-browser');

    await ui.page.getByRole('combobox', { name: 'Codec' }).click();
    await ui.page.getByRole('option', { name: 'H.264' }).click();
    await expect.poll(names).toEqual(['title.mp4', 'phone.mp4']);
    await ui.page.getByRole('combobox', { name: 'Codec' }).click();
    await ui.page.getByRole('option', { name: 'VP9' }).click();
    await expect.poll(names).toEqual(['bars.mkv']);
    await ui.page.getByRole('combobox', { name: 'Codec' }).click();
    await ui.page.getByRole('option', { name: 'Any codec' }).click();
    await expect.poll(async () => (await names()).length).toBe(4);

    // Camera: a dropdown of the cameras present; name: a part of the file name. Both combine with the codec and sort.
    await ui.page.getByRole('combobox', { name: 'Camera' }).click();
    await ui.page.getByRole('option', { name: 'iPhone 15 Pro' }).click();
    await expect.poll(names).toEqual(['phone.mp4']);
    await ui.page.getByRole('combobox', { name: 'Camera' }).click();
    await ui.page.getByRole('option', { name: 'Any camera' }).click();
    await ui.page.getByLabel('Filter by name').fill('E');
    await expect.poll(async () => (await names()).sort()).toEqual(['hevc.mov', 'phone.mp4', 'title.mp4']);
    await ui.page.getByLabel('Filter by name').fill('%');
    await expect
      .poll(() => ui.page.getByTestId('library-empty').textContent())
      .toContain('No file matches this filter.');
    await ui.page.getByLabel('Filter by name').fill('');
    await expect.poll(async () => (await names()).length).toBe(4);

    await row('title.mp4').click({ button: 'right' });
    const menu = ui.page.getByTestId('file-menu');
    await menu.waitFor();
    expect((await menu.getByRole('menuitem').allTextContents()).map((t) => t.trim())).toEqual([
      'Play',
      'Show in Folder',
      'Copy path',
      'Save clip…',
      'Remove from library…',
    ]);
    await shot('17-library-menu');
    await ui.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    // Enter plays once the library holds the video (the player reads its details from the service).
    await expect
      .poll(() => row('title.mp4').getAttribute('data-status'), { timeout: 120_000, interval: 500 })
      .toBe('indexed');

    // Right-click, Save clip: the whole file as in and out; the clip appears on the Clips page.
    await row('title.mp4').click({ button: 'right' });
    await ui.page.getByTestId('menu-save-clip').click();
    await ui.page.getByTestId('save-clip-dialog').waitFor();
    await expect.poll(() => ui.page.getByTestId('clip-in').inputValue()).toMatch(/^00:00:00[:;]00$/);
    expect(await ui.page.getByTestId('clip-out').inputValue()).toMatch(/^00:00:0[34][:;]\d\d$/);
    await ui.page.getByTestId('clip-name-input').fill('Whole title');
    await ui.page.getByTestId('save-clip-submit').click();
    await ui.page.getByTestId('save-clip-dialog').waitFor({ state: 'detached' });
    await ui.page.getByTestId('nav-clips').click();
    const card = ui.page.getByTestId('clip-card').filter({ hasText: 'Whole title' });
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    await ui.page.getByTestId('nav-library').click();

    // Right-click, Remove: asks first; the service then no longer holds the video, the file stays on disk, untracked.
    await expect
      .poll(() => row('phone.mp4').getAttribute('data-status'), { timeout: 120_000, interval: 500 })
      .toBe('indexed');
    const phone = (await ui.running.app.registry.invoke('sync:files', { page: 1, size: 10 })) as {
      ok: true;
      value: { files: { path: string; videoNo: string }[] };
    };
    const videoNo = phone.value.files.find((f) => f.path.endsWith('/phone.mp4'))?.videoNo ?? '';
    expect((await ui.running.app.registry.invoke('library:video', { videoNo })).ok).toBe(true);
    const before = statSync(join(ui.running.footageDir, 'phone.mp4'));
    await row('phone.mp4').click({ button: 'right' });
    await ui.page.getByTestId('menu-remove').click();
    const confirm = ui.page.getByTestId('remove-dialog');
    expect(await confirm.textContent()).toContain('The file on your disk is not touched');
    await shot('17-library-remove');
    await confirm.getByTestId('remove-confirm').click();
    await confirm.waitFor({ state: 'detached' });
    // The service is asked once the Undo time is over (issue 28 item 1).
    await ui.page.getByTestId('undo-remove').waitFor();
    await expect
      .poll(() => row('phone.mp4').getAttribute('data-status'), { timeout: 20_000, interval: 500 })
      .toBe('skipped');
    expect(await row('phone.mp4').textContent()).toContain('Removed from the library');
    const gone = await ui.running.app.registry.invoke('library:video', { videoNo });
    expect(gone.ok ? 'found' : gone.error.code).toBe('not_found');
    expect(existsSync(join(ui.running.footageDir, 'phone.mp4'))).toBe(true);
    expect(statSync(join(ui.running.footageDir, 'phone.mp4')).mtimeMs).toBe(before.mtimeMs);
    // Not uploaded again: the queue settles with the file untracked and the service still without it.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await row('phone.mp4').getAttribute('data-status')).toBe('skipped');
    expect((await ui.running.app.registry.invoke('library:video', { videoNo })).ok).toBe(false);

    await row('title.mp4').focus();
    await ui.page.keyboard.press('Enter');
    await ui.page.getByTestId('player-video').waitFor();
    await expect.poll(() => videoWidth(ui.page.getByTestId('player-video')), { timeout: 15_000 }).toBe(1280);
    expect(await ui.page.locator('.player-title').textContent()).toBe('title.mp4');
    expect(ui.errors).toEqual([]);
  }, 240_000);
});
