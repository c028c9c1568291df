import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { EventPayload } from '../../../shared/contract';
import { bridge } from '../transport';

export type UploadProgress = EventPayload<'sync:progress'> & { at: number };
export type ProxyProgress = EventPayload<'sync:proxy-progress'> & { at: number };

/** Latest progress per file id, fed by `sync:progress` (uploads) or `sync:proxy-progress` (proxies) events. */
class ProgressStore<P extends { fileId: number }> {
  private map = new Map<number, P>();
  private readonly listeners = new Set<() => void>();

  set(p: P): void {
    this.map = new Map(this.map).set(p.fileId, p);
    this.listeners.forEach((l) => l());
  }

  drop(fileId: number): void {
    if (!this.map.has(fileId)) return;
    this.map = new Map(this.map);
    this.map.delete(fileId);
    this.listeners.forEach((l) => l());
  }

  snapshot = (): Map<number, P> => this.map;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
}

export const progressStore = new ProgressStore<UploadProgress>();
export const proxyProgressStore = new ProgressStore<ProxyProgress>();

export function useUploadProgress(): Map<number, UploadProgress> {
  return useSyncExternalStore(progressStore.subscribe, progressStore.snapshot);
}

export function useProxyProgress(): Map<number, ProxyProgress> {
  return useSyncExternalStore(proxyProgressStore.subscribe, proxyProgressStore.snapshot);
}

/** Main's sync events invalidate the cached queries (coalesced, at most ~4 times a second). */
export function useSyncEvents(): void {
  const qc = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = (): void => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void qc.invalidateQueries({ queryKey: ['sync'] });
      }, 250);
    };
    const offs = [
      bridge.on('sync:file-changed', (e) => {
        if (e.status !== 'uploading') progressStore.drop(e.id);
        if (e.status !== 'queued') proxyProgressStore.drop(e.id);
        refresh();
      }),
      bridge.on('sync:queue', refresh),
      bridge.on('sync:progress', (p) => progressStore.set({ ...p, at: Date.now() })),
      bridge.on('sync:proxy-progress', (p) =>
        p.percent >= 100 ? proxyProgressStore.drop(p.fileId) : proxyProgressStore.set({ ...p, at: Date.now() }),
      ),
      bridge.on('settings:changed', () => void qc.invalidateQueries({ queryKey: ['settings'] })),
    ];
    return () => {
      offs.forEach((off) => off());
      if (timer) clearTimeout(timer);
    };
  }, [qc]);
}
