import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { addFolderInPage, screenshotsDir, uiSession } from '../helpers/ui-app';

/**
 * Issue 28 item 1, as the editor did it: the trash icon on a watched folder made the library forget every file of
 * it at once. Now it asks, says what happens, can be undone, and the files stay in the library, playing locally.
 * "Remove from library" gets its Undo too, before the service deletes anything.
 */
describe.skipIf(skipBrowserTests)('stopping a watch and removing from the library (Chromium, web mode)', () => {
  const ui = uiSession({ viewport: { width: 1280, height: 800 } });
  const row = (name: string) => ui.page.locator(`[data-testid="file-row"][data-path$="/${name}"]`);
  const folderState = () => ui.page.getByTestId('folder-item').first().getAttribute('data-state');
  const shot = (name: string): Promise<void> => screenshotBothThemes(ui.page, join(screenshotsDir, name));

  it('asks before it stops watching, keeps the files in the library, and undoes', async () => {
    await addFolderInPage(ui.page, ui.running.web.url, ui.running.footageDir);
    copyFileSync(fixturePath('phoneH264Mp4'), join(ui.running.footageDir, 'phone.mp4'));
    await expect
      .poll(() => row('phone.mp4').getAttribute('data-status'), { timeout: 120_000, interval: 500 })
      .toBe('indexed');

    await ui.page.getByTestId('nav-settings').click();
    await ui.page.getByTestId('stop-watching').click();
    const dialog = ui.page.getByTestId('stop-watching-dialog');
    expect(await dialog.textContent()).toContain('Everything already in the library stays there');
    await shot('28-stop-watching-ask');
    // "Keep watching" changes nothing.
    await dialog.getByRole('button', { name: 'Keep watching' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await folderState()).toBe('watching');

    await ui.page.getByTestId('stop-watching').click();
    await ui.page.getByTestId('stop-watching-confirm').click();
    await expect.poll(folderState).toBe('stopped');
    await ui.page.getByTestId('undo-stop').waitFor();
    await shot('28-stop-watching-undo');
    await ui.page.getByTestId('undo-stop').click();
    await expect.poll(folderState).toBe('watching');

    // Stopped for good this time: the Library still lists the file, indexed, playing from this computer.
    await ui.page.getByTestId('stop-watching').click();
    await ui.page.getByTestId('stop-watching-confirm').click();
    await expect.poll(folderState).toBe('stopped');
    await ui.page.getByTestId('watch-again').waitFor();
    await shot('28-stopped-folder');
    await ui.page.getByTestId('nav-library').click();
    expect(await row('phone.mp4').getAttribute('data-status')).toBe('indexed');
    await row('phone.mp4').focus();
    await ui.page.keyboard.press('Enter');
    await ui.page.getByTestId('player-video').waitFor();
    const src = await ui.page.getByTestId('player-video').getAttribute('src');
    expect(src).toMatch(/media/);
    expect(await ui.page.getByText('The original is not on this computer').count()).toBe(0);
    await ui.page.keyboard.press('Escape');

    // "Watch again" from Settings.
    await ui.page.getByTestId('nav-settings').click();
    await ui.page.getByTestId('watch-again').click();
    await expect.poll(folderState).toBe('watching');
  }, 240_000);

  it('removes from the library only after the Undo time, and Undo keeps the video', async () => {
    await ui.page.getByTestId('nav-library').click();
    const files = (await ui.running.app.registry.invoke('sync:files', { page: 1, size: 10 })) as {
      ok: true;
      value: { files: { path: string; videoNo: string }[] };
    };
    const videoNo = files.value.files.find((f) => f.path.endsWith('/phone.mp4'))?.videoNo ?? '';
    await row('phone.mp4').click({ button: 'right' });
    await ui.page.getByTestId('menu-remove').click();
    await ui.page.getByTestId('remove-confirm').click();
    await ui.page.getByTestId('undo-remove').waitFor();
    await shot('28-remove-undo');
    await ui.page.getByTestId('undo-remove').click();
    await new Promise((r) => setTimeout(r, 9_000));
    expect(await row('phone.mp4').getAttribute('data-status')).toBe('indexed');
    expect((await ui.running.app.registry.invoke('library:video', { videoNo })).ok).toBe(true);
    expect(existsSync(join(ui.running.footageDir, 'phone.mp4'))).toBe(true);
  }, 60_000);
});
