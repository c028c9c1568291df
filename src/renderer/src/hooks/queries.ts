import { useQuery } from '@tanstack/react-query';
import { call } from '../transport';

/** Shared queries; keys under 'sync' are refreshed by the sync events. */
export function useSyncStatus() {
  return useQuery({
    queryKey: ['sync', 'status'],
    queryFn: () => call('sync:status', {}),
    refetchInterval: 5000,
    retry: false,
  });
}

export function useFolders() {
  return useQuery({ queryKey: ['sync', 'folders'], queryFn: () => call('folders:list', {}), retry: false });
}

export function useSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: () => call('settings:get', {}) });
}

export function useAppInfo() {
  return useQuery({ queryKey: ['app:info'], queryFn: () => call('app:info', {}), refetchInterval: 10_000 });
}

/** Whether the library service answers (pushed by `library:connectivity` events, polled as a fallback). */
export function useConnectivity() {
  return useQuery({
    queryKey: ['connectivity'],
    queryFn: () => call('library:connectivity', {}),
    refetchInterval: 15_000,
    retry: false,
  });
}

/** True only when a library service is configured and its last probe failed. */
export function useLibraryOffline(): boolean {
  const c = useConnectivity();
  return c.data !== undefined && c.data.configured && !c.data.online;
}

export function useClipCount() {
  return useQuery({
    queryKey: ['clips', 'count'],
    queryFn: async () => (await call('clips:list', { page: 1, size: 1 })).total,
  });
}

export function useDownloads() {
  return useQuery({ queryKey: ['downloads'], queryFn: () => call('downloads:list', { limit: 200 }) });
}

/** Where exports, clips and downloads may be written by path, and whether a native dialog can grant other places. */
export function useDestinations() {
  return useQuery({ queryKey: ['destinations'], queryFn: () => call('destinations:roots', {}) });
}

/** The library service's folders (name, video count): what a watched folder can file its footage into. */
export function useLibraryFolders() {
  return useQuery({
    queryKey: ['library-folders'],
    queryFn: () => call('library:folders', {}),
    retry: false,
    staleTime: 60_000,
  });
}
