import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../shared/errors';
import { channelNames } from '../../shared/contract';
import { mediaSource } from '../media/media-source';

vi.mock('electron', () => ({
  safeStorage: { isEncryptionAvailable: vi.fn(), encryptString: vi.fn(), decryptString: vi.fn() },
}));

const electron = await import('electron');
const { registerIpc } = await import('./ipc');
const { safeStorageVault } = await import('./vault');
const { handleMediaRequest } = await import('./media-protocol');

type Registered = (event: { senderFrame: { url: string } | null }, req: unknown) => unknown;

describe('shell IPC handlers (electron mocked)', () => {
  afterEach(() => vi.clearAllMocks());

  it('registers exactly the contract channels and refuses senders outside the app origin', async () => {
    const invoke = vi.fn((channel: string, req: unknown) => Promise.resolve(ok({ channel, req })));
    const handle = vi.fn<(channel: string, fn: Registered) => void>();
    registerIpc({ handle }, { invoke }, 'reelsync://app');
    const registered = new Map(handle.mock.calls.map(([channel, fn]) => [channel, fn]));
    expect([...registered.keys()].sort()).toEqual([...channelNames].sort());
    const echo = registered.get('clips:search');
    expect(await echo?.({ senderFrame: { url: 'reelsync://app/index.html' } }, { text: 'hi' })).toEqual(
      ok({ channel: 'clips:search', req: { text: 'hi' } }),
    );
    expect(await echo?.({ senderFrame: { url: 'https://evil.example/' } }, { text: 'hi' })).toEqual({
      ok: false,
      error: { code: 'bad_request', message: 'sender not allowed' },
    });
    expect(await echo?.({ senderFrame: null }, {})).toMatchObject({ ok: false });
    expect(invoke).toHaveBeenCalledTimes(1);
  });

  it('seals keys with safeStorage and refuses to store one when the keychain is unavailable', () => {
    const safe = vi.mocked(electron.safeStorage);
    safe.isEncryptionAvailable.mockReturnValue(true);
    safe.encryptString.mockImplementation((s: string) => Buffer.from(`enc(${s})`));
    safe.decryptString.mockImplementation((b: Buffer) => b.toString().replace(/^enc\((.*)\)$/, '$1'));
    const vault = safeStorageVault(safe);
    const sealed = vault.seal('rsl_secret');
    expect(sealed).not.toContain('rsl_secret');
    expect(vault.open(sealed)).toBe('rsl_secret');
    safe.isEncryptionAvailable.mockReturnValue(false);
    expect(() => vault.seal('rsl_other')).toThrow(/keychain/);
  });
});

describe('reelsync-media protocol', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves ranges inside the roots and refuses paths outside them', async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelsync-media-'));
    const root = join(dir, 'watched');
    const file = join(root, 'a.mp4');
    await import('node:fs/promises').then((fs) => fs.mkdir(root));
    await writeFile(file, Buffer.alloc(1000, 7));
    await writeFile(join(dir, 'outside.mp4'), 'x');
    // Settings as the user changes them: the roots are read on every request.
    const settings = { outputFolders: [] as string[], clipsDir: join(dir, 'clips') };
    // Clips and downloads saved to a folder chosen in a dialog: served by exact path, never their neighbours.
    const saved = new Set<string>();
    const media = mediaSource({
      dataDir: dir,
      watchedPaths: () => [root],
      destinations: () => ({ configuredRoots: () => settings.outputFolders, clipsDir: () => settings.clipsDir }),
      savedFile: (path) => saved.has(path),
      thumbnails: () => undefined,
    });
    const get = (path: string, headers: Record<string, string> = {}) =>
      handleMediaRequest(media, new Request(`reelsync-media://file/?path=${encodeURIComponent(path)}`, { headers }));
    const ranged = await get(file, { range: 'bytes=10-19' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect((await ranged.arrayBuffer()).byteLength).toBe(10);
    expect((await get(join(root, '..', 'outside.mp4'))).status).toBe(403);
    settings.outputFolders = [dir];
    expect((await get(join(root, '..', 'outside.mp4'))).status).toBe(200);
    settings.outputFolders = [];
    settings.clipsDir = dir;
    expect((await get(join(root, '..', 'outside.mp4'))).status).toBe(200);
    settings.clipsDir = join(dir, 'clips');
    expect((await get(join(root, '..', 'outside.mp4'))).status).toBe(403);
    const granted = join(dir, 'granted');
    await import('node:fs/promises').then((fs) => fs.mkdir(granted));
    await writeFile(join(granted, 'clip.mp4'), 'c');
    await writeFile(join(granted, 'neighbour.mp4'), 'n');
    saved.add(join(granted, 'clip.mp4'));
    expect((await get(join(granted, 'clip.mp4'))).status).toBe(200);
    expect((await get(join(granted, 'neighbour.mp4'))).status).toBe(403);
    expect((await get(file, { range: 'bytes=5000-' })).status).toBe(416);
    const kf = await handleMediaRequest(
      media,
      new Request('reelsync-media://keyframe/?bucket=b&blob=keyframes/V1/0.jpg'),
    );
    expect(kf.status).toBe(503);
  });
});

describe('window security', () => {
  it('isolates the renderer, blocks navigation out of the app and denies new windows', async () => {
    const { guardContents, secureWebPreferences } = await import('./window-security');
    const { CONTENT_SECURITY_POLICY } = await import('../security');
    expect(secureWebPreferences('/p.cjs')).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    const listeners = new Map<string, (event: { preventDefault: () => void }, url: string) => void>();
    let openHandler: ((d: { url: string }) => { action: string }) | undefined;
    const contents = {
      on: (name: string, fn: (event: { preventDefault: () => void }, url: string) => void) => listeners.set(name, fn),
      setWindowOpenHandler: (fn: (d: { url: string }) => { action: string }) => (openHandler = fn),
    };
    const opened: string[] = [];
    guardContents(contents as never, (url) => (opened.push(url), Promise.resolve()), 'reelsync://app');
    const prevent = vi.fn();
    listeners.get('will-navigate')?.({ preventDefault: prevent }, 'https://evil.example/');
    expect(prevent).toHaveBeenCalledTimes(1);
    listeners.get('will-navigate')?.({ preventDefault: prevent }, 'reelsync://app/index.html');
    expect(prevent).toHaveBeenCalledTimes(1);
    expect(openHandler?.({ url: 'https://docs.example/' })).toEqual({ action: 'deny' });
    expect(openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://docs.example/']);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
  });
});
