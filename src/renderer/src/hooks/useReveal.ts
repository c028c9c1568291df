import { useMutation } from '@tanstack/react-query';
import type { Res } from '../../../shared/contract';
import { call } from '../transport';
import { useAppInfo } from './queries';
import { useToast } from './useToast';

/** What "reveal" is called where the app runs: Finder, Explorer, or the file manager's folder view. */
export function revealLabel(platform: string | undefined): string {
  if (platform === 'darwin') return 'Show in Finder';
  if (platform === 'win32') return 'Show in Explorer';
  return 'Show in Folder';
}

export function useRevealLabel(): string {
  return revealLabel(useAppInfo().data?.platform);
}

/**
 * Reveals a library file or a clip by id (main looks the path up; the renderer never sends one). When the file
 * manager cannot be reached, the path is shown instead.
 */
export function useReveal(what: 'file' | 'clip') {
  const toast = useToast();
  return useMutation({
    mutationFn: (id: number): Promise<Res<'files:reveal'>> =>
      what === 'file' ? call('files:reveal', { id }) : call('clips:reveal', { id }),
    onSuccess: (r) => {
      if (!r.done)
        toast({ title: what === 'file' ? 'The file is here' : 'The clip file is here', body: r.detail, tone: 'info' });
    },
    onError: (err) => toast({ title: 'Could not show the file', body: err.message, tone: 'bad' }),
  });
}
