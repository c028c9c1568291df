import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SemanticState } from '../../../shared/semantic-state';
import { bytes } from '../lib/format';
import { call } from '../transport';

/** Polled fast while the model downloads or keyframes are being embedded, slowly otherwise. */
function pollMs(s: SemanticState | undefined): number {
  if (s?.state === 'downloading') return 500;
  if (s?.state === 'ready' && s.pendingSegments > 0) return 2000;
  // Off: the service asks the host for the model's size in the background; look again soon for it.
  if (s?.state === 'off' && s.expectedBytes == null) return 3000;
  return 15_000;
}

/** The semantic model slot's state with its Download, Cancel and install from a folder, shared by Settings' card and the Search page. */
export function useSemanticModel() {
  const qc = useQueryClient();
  const state = useQuery({
    queryKey: ['semantic'],
    queryFn: () => call('semantic:state', {}),
    refetchInterval: (q) => pollMs(q.state.data),
    retry: false,
  });
  const download = useMutation({
    mutationFn: () => call('semantic:download', {}),
    onSuccess: (s) => qc.setQueryData(['semantic'], s),
  });
  const cancel = useMutation({
    mutationFn: () => call('semantic:cancel', {}),
    onSuccess: (s) => qc.setQueryData(['semantic'], s),
  });
  const install = useMutation({
    mutationFn: (path: string) => call('semantic:install', { path }),
    onSuccess: (s) => qc.setQueryData(['semantic'], s),
  });
  return { state, download, cancel, install };
}

/** At a typical office link, what a download of `n` bytes takes. */
const REFERENCE_BITS_PER_SECOND = 100_000_000;

/** What the model costs before it is downloaded: its size and the time at 100 Mbit/s, once the host stated them. */
export function modelCost(s: SemanticState): string | null {
  if (s.state !== 'off' || s.expectedBytes == null) return null;
  const seconds = Math.max(1, Math.round((s.expectedBytes * 8) / REFERENCE_BITS_PER_SECOND));
  return `${bytes(s.expectedBytes)}, about ${seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`} at 100 Mbit/s`;
}
