import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settingsRegistry } from '../../../test/helpers/settings-registry';
import { tempDir } from '../../../test/helpers/temp';
import { EventBus } from '../events';
import { AppSettings } from '../settings/app-settings';
import { databaseVault } from '../settings/key-vault';
import { openDatabase, type Db } from '../store/database';

vi.mock('electron', () => ({}));

const { followThemeSetting } = await import('./native-theme');

let db: Db;
let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-native-theme-'));
  db = openDatabase(join(dir, 'client.db'));
});
afterEach(async () => {
  db.close();
  await cleanup();
});

describe('native theme', () => {
  it('sets nativeTheme.themeSource from the stored theme at start and on every settings:set, until stopped', async () => {
    const events = new EventBus();
    const registry = settingsRegistry(db, dir, events);
    new AppSettings(db, databaseVault).setTheme('dark');
    const nativeTheme: { themeSource: 'system' | 'light' | 'dark' } = { themeSource: 'system' };

    const stop = followThemeSetting(nativeTheme, new AppSettings(db, databaseVault).theme(), events);
    expect(nativeTheme.themeSource).toBe('dark');
    expect(await registry.invoke('settings:set', { theme: 'light' })).toMatchObject({ ok: true });
    expect(nativeTheme.themeSource).toBe('light');
    expect(await registry.invoke('settings:set', { theme: 'system' })).toMatchObject({ ok: true });
    expect(nativeTheme.themeSource).toBe('system');
    expect(await registry.invoke('settings:set', { theme: 'sepia' })).toMatchObject({ ok: false });
    expect(nativeTheme.themeSource).toBe('system');
    stop();
    await registry.invoke('settings:set', { theme: 'dark' });
    expect(nativeTheme.themeSource).toBe('system');
  });
});
