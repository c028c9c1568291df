import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempClientDb } from '../../../test/helpers/temp-db';
import { createLogger } from '../log';
import { SettingsStore } from '../store/settings-store';
import { ProxyCache } from './proxy-cache';
import { MIN_PROXY_CACHE_CAP, ProxySettings } from './proxy-settings';
import { ProxyStore } from './proxy-store';

const t = useTempClientDb();
const MB = 1024 * 1024;

/** A finished proxy in the cache: a real (small) file, its row claiming `size` bytes, finished at `at`. */
async function proxy(cache: ProxyCache, store: ProxyStore, hash: string, size: number, at: number, uploaded = true) {
  const path = join(cache.folderOf(hash), `${hash}.mp4`);
  await mkdir(cache.folderOf(hash), { recursive: true });
  await writeFile(path, hash);
  store.begin(hash, path, 1280, 'libx264', at);
  store.ready(hash, size, 'x', at);
  if (uploaded) store.uploaded(hash, `v-${hash}`);
  return path;
}

function setup(cap = MIN_PROXY_CACHE_CAP, keep = false) {
  const store = new ProxyStore(t.db);
  const settings = new ProxySettings(t.db);
  settings.set({ cacheCapBytes: cap, keep });
  return { store, settings, cache: new ProxyCache(join(t.dir, 'proxies'), store, settings, createLogger('test')) };
}

describe('proxy cache', () => {
  it('evicts uploaded proxies oldest first, only as many as the new one needs', async () => {
    const { store, cache } = setup();
    const old = await proxy(cache, store, 'a', 400 * MB, 1);
    const mid = await proxy(cache, store, 'b', 400 * MB, 2);
    const young = await proxy(cache, store, 'c', 200 * MB, 3);
    expect(await cache.makeRoom(300 * MB)).toBeNull();
    expect([existsSync(old), existsSync(mid), existsSync(young)]).toEqual([false, true, true]);
    expect(store.get('a')).toMatchObject({ state: 'removed', size: 0, video_no: 'v-a' });
    expect(store.cachedBytes()).toBe(600 * MB);
  });

  it('makes a new proxy wait, in plain words, while proxies not uploaded yet hold the cache', async () => {
    const { store, cache } = setup();
    const waiting = await proxy(cache, store, 'a', 900 * MB, 1, false);
    expect(await cache.makeRoom(300 * MB)).toMatch(/^the proxy cache is full: 900\.0 MB of 1\.0 GB held/);
    expect(existsSync(waiting)).toBe(true);
    store.uploaded('a', 'v-a');
    expect(await cache.makeRoom(300 * MB)).toBeNull();
    expect(existsSync(waiting)).toBe(false);
    // Alone in an empty cache, a proxy bigger than the cap still goes ahead rather than wait for ever.
    expect(await cache.makeRoom(5 * 1024 * MB)).toBeNull();
  });

  it('deletes a proxy once its video is indexed, unless kept for offline playback', async () => {
    const { store, cache, settings } = setup();
    const gone = await proxy(cache, store, 'a', MB, 1);
    await cache.indexed('a');
    expect(existsSync(gone)).toBe(false);
    settings.set({ keep: true });
    const kept = await proxy(cache, store, 'b', MB, 2);
    await cache.indexed('b');
    expect(existsSync(kept)).toBe(true);
    expect(store.get('b')?.state).toBe('uploaded');
  });

  it('refuses settings outside their range and reads defaults for junk', () => {
    const { settings } = setup();
    expect(() => settings.set({ cacheCapBytes: 10 })).toThrow();
    expect(() => settings.set({ width: 1000 as 960 })).toThrow();
    new SettingsStore(t.db).set('proxy.width', 'wide');
    expect(settings.get().width).toBe(1280);
  });
});
