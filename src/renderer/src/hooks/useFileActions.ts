import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileActions } from '../components/FileRow';
import { call } from '../transport';
import { useReveal, useRevealLabel } from './useReveal';
import { useToast } from './useToast';

/** Per-file queue control and reveal in the file manager, with a toast when main refuses. */
export function useFileActions(): FileActions {
  const qc = useQueryClient();
  const toast = useToast();
  const reveal = useReveal('file');
  const revealLabel = useRevealLabel();
  const m = useMutation({
    mutationFn: async ({ kind, id }: { kind: 'retry' | 'pause' | 'resume' | 'cancel'; id: number }) => {
      switch (kind) {
        case 'retry':
          return call('sync:retry', { fileId: id });
        case 'pause':
          return call('sync:pause', { fileId: id });
        case 'resume':
          return call('sync:resume', { fileId: id });
        case 'cancel':
          return call('sync:cancel', { fileId: id });
      }
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ['sync'] }),
    onError: (err) => toast({ title: 'That did not work', body: err.message, tone: 'bad' }),
  });
  return {
    retry: (id) => m.mutate({ kind: 'retry', id }),
    pause: (id) => m.mutate({ kind: 'pause', id }),
    resume: (id) => m.mutate({ kind: 'resume', id }),
    cancel: (id) => m.mutate({ kind: 'cancel', id }),
    reveal: (id) => reveal.mutate(id),
    revealLabel,
  };
}
