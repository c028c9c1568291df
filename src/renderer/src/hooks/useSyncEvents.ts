import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { EventPayload } from '../../../shared/contract';
import { bridge } from '../transport';

export type UploadProgress = EventPayload<'sync:progress'> & { at: number };

/** Latest upload progress per file id, fed by `sync:progress` events. */
class ProgressStore {
  private map = new Map<number, UploadProgress>();
  private readonly listeners = new Set<() => void>();

  set(p: UploadProgress): void {
    this.map = new Map(this.map).set(p.fileId, p);
    this.listeners.forEach((l) => l());
  }

  drop(fileId: number): void {
    if (!this.map.has(fileId)) return;
    this.map = new Map(this.map);
    this.map.delete(fileId);
    this.listeners.forEach((l) => l());
  }

  snapshot = (): Map<number, UploadProgress> => this.map;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
}

export const progressStore = new ProgressStore();

export function useUploadProgress(): Map<number, UploadProgress> {
  return useSyncExternalStore(progressStore.subscribe, progressStore.snapshot);
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
        refresh();
      }),
      bridge.on('sync:queue', refresh),
      bridge.on('sync:progress', (p) => progressStore.set({ ...p, at: Date.now() })),
      bridge.on('settings:changed', () => void qc.invalidateQueries({ queryKey: ['settings'] })),
    ];
    return () => {
      offs.forEach((off) => off());
      if (timer) clearTimeout(timer);
    };
  }, [qc]);
}
