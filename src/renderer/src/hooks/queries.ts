import { useQuery } from '@tanstack/react-query';
import { call } from '../transport';

/** Shared queries; keys under 'sync' are refreshed by the sync events. */
export function useSyncStatus() {
  return useQuery({ queryKey: ['sync', 'status'], queryFn: () => call('sync:status', {}), refetchInterval: 5000, retry: false });
}

export function useFolders() {
  return useQuery({ queryKey: ['sync', 'folders'], queryFn: () => call('folders:list', {}), retry: false });
}

export function useSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: () => call('settings:get', {}) });
}
