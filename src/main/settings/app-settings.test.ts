import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settingsRegistry } from '../../../test/helpers/settings-registry';
import { tempDir } from '../../../test/helpers/temp';
import { settingsChannels, type SettingsView } from '../../shared/contract/settings';
import { EventBus } from '../events';
import { openDatabase, type Db } from '../store/database';
import { SettingsStore } from '../store/settings-store';
import { AppSettings } from './app-settings';
import { databaseVault } from './key-vault';

let db: Db;
let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-settings-'));
  db = openDatabase(join(dir, 'client.db'));
});
afterEach(async () => {
  db.close();
  await cleanup();
});

describe('window close setting', () => {
  it('defaults to keeping the app in the tray, and stores quit', () => {
    const s = new AppSettings(db, databaseVault);
    expect(s.windowClose()).toBe('tray');
    s.setWindowClose('quit');
    expect(new AppSettings(db, databaseVault).windowClose()).toBe('quit');
    s.setWindowClose('tray');
    expect(s.windowClose()).toBe('tray');
  });

  it('refuses a bad value on the way in and reads an unknown stored one as the default', () => {
    const s = new AppSettings(db, databaseVault);
    s.setWindowClose('quit');
    expect(() => s.setWindowClose('minimize' as never)).toThrow(/Invalid option/);
    expect(s.windowClose()).toBe('quit');
    new SettingsStore(db).set('ui.window-close', 'minimize');
    expect(s.windowClose()).toBe('tray');
    const req = settingsChannels['settings:set'].req;
    expect(req.safeParse({ windowClose: 'quit' }).success).toBe(true);
    expect(req.safeParse({ windowClose: 'minimize' }).success).toBe(false);
    expect(req.safeParse({ windowClose: true }).success).toBe(false);
  });

  it('goes through the contract: settings:set validates it, settings:get and settings:changed carry it', async () => {
    const events = new EventBus();
    const changed: SettingsView[] = [];
    events.on('settings:changed', (v) => changed.push(v));
    const registry = settingsRegistry(db, dir, events);
    const get = async () =>
      settingsChannels['settings:get'].res.parse(
        ((await registry.invoke('settings:get', {})) as { value: unknown }).value,
      );
    expect((await get()).windowClose).toBe('tray');
    expect(await registry.invoke('settings:set', { windowClose: 'minimize' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(changed).toEqual([]);
    expect(await registry.invoke('settings:set', { windowClose: 'quit' })).toMatchObject({
      ok: true,
      value: { windowClose: 'quit' },
    });
    expect(changed.map((v) => v.windowClose)).toEqual(['quit']);
    expect((await get()).windowClose).toBe('quit');
  });

  it('remembers that the tray notification was shown', () => {
    const s = new AppSettings(db, databaseVault);
    expect(s.trayHintShown()).toBe(false);
    s.setTrayHintShown();
    expect(new AppSettings(db, databaseVault).trayHintShown()).toBe(true);
  });
});

describe('theme setting', () => {
  it('follows the system by default, stores light or dark through the contract, refuses anything else', async () => {
    const s = new AppSettings(db, databaseVault);
    expect(s.theme()).toBe('system');
    new SettingsStore(db).set('ui.theme', 'sepia');
    expect(s.theme()).toBe('system');
    const events = new EventBus();
    const registry = settingsRegistry(db, dir, events);
    expect(await registry.invoke('settings:set', { theme: 'sepia' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await registry.invoke('settings:set', { theme: 'light' })).toMatchObject({
      ok: true,
      value: { theme: 'light' },
    });
    expect(new AppSettings(db, databaseVault).theme()).toBe('light');
    expect(() => s.setTheme('sepia' as never)).toThrow(/Invalid option/);
  });
});

describe('proxy settings', () => {
  it('default to 1280 wide, a 20 GB cache, not kept; go through the contract; refuse other widths and tiny caps', async () => {
    const s = new AppSettings(db, databaseVault);
    expect(s.proxy()).toEqual({ width: 1280, cacheCapBytes: 20 * 1024 ** 3, keep: false });
    const registry = settingsRegistry(db, dir, new EventBus());
    for (const bad of [{ width: 1000 }, { cacheCapBytes: 1024 }, { keep: 'yes' }])
      expect(await registry.invoke('settings:set', { proxy: bad })).toMatchObject({
        ok: false,
        error: { code: 'bad_request' },
      });
    expect(await registry.invoke('settings:set', { proxy: { width: 960, keep: true } })).toMatchObject({
      ok: true,
      value: { proxy: { width: 960, cacheCapBytes: 20 * 1024 ** 3, keep: true } },
    });
    expect(new AppSettings(db, databaseVault).proxy()).toMatchObject({ width: 960, keep: true });
  });
});

describe('client state kept with the settings', () => {
  it('pauses each queue on its own and reads a damaged pause as none', () => {
    const s = new AppSettings(db);
    s.setQueuePause('library', 'insufficient-balance');
    expect(s.queuePause('sync')).toBeNull();
    expect(new AppSettings(db).queuePause('library')).toMatchObject({ reason: 'insufficient-balance' });
    new SettingsStore(db).set('sync.queue.paused', '{"reason":"bored"');
    expect(s.queuePause('sync')).toBeNull();
    s.setQueuePause('library', null);
    expect(s.queuePause('library')).toBeNull();
  });

  it('counts scans, keeps the delete policy and destinations, and opens no API key without a vault', () => {
    const s = new AppSettings(db);
    expect([s.nextScanNumber(), s.nextScanNumber()]).toEqual([1, 2]);
    expect(s.deletePolicy()).toBe('keep');
    expect(s.deleteSince()).toBe(Number.MAX_SAFE_INTEGER);
    s.setDeletePolicy('delete');
    s.setDeleteSince(1_000);
    expect([s.deletePolicy(), s.deleteSince()]).toEqual(['delete', 1_000]);
    s.setDestinationRoots(['/a', '/b', '/a']);
    expect(s.destinationRoots()).toEqual(['/a', '/b']);
    new SettingsStore(db).set('destinations.roots', 'not json');
    expect(s.destinationRoots()).toEqual([]);
    s.setClipsDir('/a/clips');
    expect(s.clipsDir()).toBe('/a/clips');
    s.setCloudKey('');
    expect(() => s.cloudKey()).not.toThrow();
    new SettingsStore(db).set('ui.cloud.key', 'plain:x');
    expect(() => s.cloudKey()).toThrow(/without a key vault/);
  });
});
