import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { DownloadProgress } from '../../../shared/contract/downloads';
import { LiveMap } from '../lib/live-map';
import { bridge } from '../transport';
import { useToast } from './useToast';

export type LiveDownload = DownloadProgress & { at: number };

const downloads = new LiveMap<LiveDownload>();
/** The last state each clip was announced in: a clip is announced once per outcome, however often it is reported. */
const announced = new Map<number, string>();

export function useDownloadProgress(): Map<number, LiveDownload> {
  return useSyncExternalStore(downloads.subscribe, downloads.snapshot);
}

/** Clips, downloads and connectivity events keep their queries fresh; a clip that finishes or fails says so. */
export function useLibraryEvents(): void {
  const qc = useQueryClient();
  const toast = useToast();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refreshClips = (): void => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void qc.invalidateQueries({ queryKey: ['clips'] });
      }, 200);
    };
    const offs = [
      bridge.on('clips:changed', (e) => {
        refreshClips();
        const state = e.clip?.state;
        if (!e.clip || announced.get(e.id) === state) return;
        if (state) announced.set(e.id, state);
        if (e.clip.state === 'ready') toast({ title: 'Clip saved', body: e.clip.path ?? undefined, tone: 'ok' });
        if (e.clip.state === 'failed')
          toast({ title: 'The clip could not be saved', body: e.clip.error ?? undefined, tone: 'bad' });
      }),
      bridge.on('downloads:progress', (p) => {
        const before = downloads.snapshot().get(p.id);
        downloads.set(p.id, { ...p, at: Date.now() });
        if (before?.state !== p.state) void qc.invalidateQueries({ queryKey: ['downloads'] });
      }),
      bridge.on('library:connectivity', (c) => {
        qc.setQueryData(['connectivity'], { configured: true, ...c });
        if (c.online) void qc.invalidateQueries({ queryKey: ['search'] });
      }),
    ];
    return () => {
      offs.forEach((off) => off());
      if (timer) clearTimeout(timer);
    };
  }, [qc, toast]);
}
