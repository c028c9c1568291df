import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { screenshotBothThemes, skipBrowserTests } from '../helpers/chromium';
import { packFolder } from '../helpers/model-archives';
import { serviceUiSession } from '../helpers/service-ui-session';
import { tempDir } from '../helpers/temp';
import { writeTinyClip } from '../helpers/tiny-clip/tiny-clip';
import { screenshotsDir } from '../helpers/ui-app';

/**
 * An editor on a machine without internet brings the semantic model on a drive: Settings installs it from the folder,
 * and (model removed, service restarted) from a .zip of it; a folder missing files is refused naming them.
 */
describe.skipIf(skipBrowserTests)('Settings: install the semantic model from a folder or archive (web mode)', () => {
  let drive: { dir: string; cleanup: () => Promise<void> } | undefined;
  const session = serviceUiSession({
    service: async () => {
      drive = await tempDir('reelsync-drive-');
      await writeTinyClip(join(dir(), 'tiny-clip'));
      await packFolder(drive.dir, 'tiny-clip', join(dir(), 'tiny-clip.zip'));
      await writeTinyClip(join(dir(), 'half', 'tiny-clip'));
      await rm(join(dir(), 'half', 'tiny-clip', 'tokenizer.json'));
      // Nothing listens on port 9: the model's host cannot be reached, the machine is offline as far as it goes.
      return { config: { semantic: { host: 'http://127.0.0.1:9', model: 'tests/tiny-clip' } } };
    },
    after: async () => drive?.cleanup(),
  });
  const dir = () => drive?.dir ?? '';

  const state = () => session.page.getByTestId('semantic-state').textContent();
  const installFrom = async (path: string) => {
    await session.page.getByLabel('Model folder or archive').fill(path);
    await session.page.getByTestId('semantic-install-save').click();
  };

  it('refuses a folder missing a file, naming it, and installs from the whole folder', async () => {
    await session.page.getByTestId('nav-settings').click();
    await expect.poll(state).toBe('semantic search: off (model not downloaded)');
    await installFrom(join(dir(), 'half'));
    const error = session.page.getByTestId('semantic-install-error');
    await expect.poll(() => error.textContent()).toMatch(/lacks tokenizer\.json \(the word list\)/);
    expect(await state()).toBe('semantic search: off (model not downloaded)');
    await error.scrollIntoViewIfNeeded();
    await screenshotBothThemes(session.page, join(screenshotsDir, 'semantic-install-refused'));

    await installFrom(join(dir(), 'tiny-clip'));
    await expect.poll(state, { timeout: 30_000 }).toBe('semantic search: on (tests/tiny-clip)');
    expect(await error.count()).toBe(0);
    expect(await session.page.getByTestId('semantic-install').count()).toBe(0);
    await screenshotBothThemes(session.page, join(screenshotsDir, 'semantic-install-ready'));
  });

  it('installs from a .zip of the model once the model is gone', async () => {
    // The editor deleted the model to free the disk; the service starts again without it.
    await session.service.kill();
    await rm(join(session.service.dataDir, 'models'), { recursive: true, force: true });
    await session.service.restart();
    await session.page.reload();
    await session.page.getByTestId('nav-settings').click();
    await expect.poll(state, { timeout: 20_000 }).toBe('semantic search: off (model not downloaded)');
    await installFrom(join(dir(), 'tiny-clip.zip'));
    await expect.poll(state, { timeout: 30_000 }).toBe('semantic search: on (tests/tiny-clip)');
    expect(await session.page.getByTestId('semantic-model').textContent()).toMatch(/0 keyframes embedded/);
  });
});
