import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { channelNames } from '../../src/shared/contract';

const bundle = join(import.meta.dirname, '../../out/preload/index.cjs');

/** Runs the built preload in a bare context with a recording electron, as a sandboxed renderer would. */
function loadPreload() {
  const exposed: Record<string, unknown> = {};
  const invoked: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, (...args: unknown[]) => void>();
  const pathAsked: unknown[] = [];
  const electron = {
    // Electron's answer for a File: where it lives, or '' for one the page made; it throws on anything else.
    webUtils: {
      getPathForFile: (file: unknown) => {
        pathAsked.push(file);
        if (!(file instanceof File)) throw new TypeError('parameter 1 is not of type File');
        return file.name.startsWith('made-') ? '' : `/mnt/card/${file.name}`;
      },
    },
    contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
    ipcRenderer: {
      invoke: (channel: string, ...args: unknown[]) => {
        invoked.push({ channel, args });
        return Promise.resolve({ ok: true, value: null });
      },
      on: (channel: string, fn: (...args: unknown[]) => void) => listeners.set(channel, fn),
      off: (channel: string) => listeners.delete(channel),
    },
  };
  const required: string[] = [];
  const require = (name: string) => {
    required.push(name);
    if (name !== 'electron') throw new Error(`sandboxed preload cannot require ${name}`);
    return electron;
  };
  runInNewContext(readFileSync(bundle, 'utf8'), { require, module: { exports: {} }, exports: {}, console });
  return { exposed, invoked, listeners, required, pathAsked };
}

describe('preload bundle', () => {
  it('requires nothing but electron and exposes exactly the contract', () => {
    const { exposed, required } = loadPreload();
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(Object.keys(exposed)).toEqual(['reelsync']);
    const api = exposed.reelsync as { call: Record<string, unknown>; on: unknown };
    expect(Object.keys(api).sort()).toEqual(['call', 'on', 'pathsForDroppedFiles']);
    expect(Object.keys(api.call).sort()).toEqual([...channelNames].sort());
  });

  it('binds each function to its own channel and strips the IPC event from listeners', async () => {
    const { exposed, invoked, listeners } = loadPreload();
    const api = exposed.reelsync as {
      call: Record<string, (req: unknown) => Promise<unknown>>;
      on: (event: string, fn: (payload: unknown) => void) => () => void;
    };
    await api.call['clips:search']?.({ text: 'x' });
    expect(invoked).toEqual([{ channel: 'clips:search', args: [{ text: 'x' }] }]);
    const seen: unknown[] = [];
    const off = api.on('app:status', (payload) => seen.push(payload));
    listeners.get('event:app:status')?.({ sender: 'ipc-event-object' }, { state: 'ready', at: 1 });
    expect(seen).toEqual([{ state: 'ready', at: 1 }]);
    off();
    expect(listeners.has('event:app:status')).toBe(false);
  });

  it('asks webUtils.getPathForFile for each dropped file and returns the paths it knows, calling no channel', () => {
    const { exposed, invoked, pathAsked } = loadPreload();
    const api = exposed.reelsync as { pathsForDroppedFiles: (files: unknown) => string[] };
    const files = [new File([], 'A001'), new File(['x'], 'clip.mp4'), new File([], 'made-in-page.txt')];
    expect(api.pathsForDroppedFiles(files)).toEqual(['/mnt/card/A001', '/mnt/card/clip.mp4']);
    expect(pathAsked).toEqual(files);
    expect(api.pathsForDroppedFiles([{ name: 'fake' }, 'x', new File([], 'B002')])).toEqual(['/mnt/card/B002']);
    expect(api.pathsForDroppedFiles('not a list')).toEqual([]);
    expect(api.pathsForDroppedFiles(Array.from({ length: 1500 }, (_, i) => new File([], `f${i}`)))).toHaveLength(1000);
    expect(invoked).toEqual([]);
  });
});
