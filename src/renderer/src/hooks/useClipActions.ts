import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Req } from '../../../shared/contract';
import { call } from '../transport';
import { useReveal } from './useReveal';
import { useToast } from './useToast';

/** Edit, delete, reveal and drag a clip; failures become toasts. */
export function useClipActions() {
  const qc = useQueryClient();
  const toast = useToast();
  const onError = (err: Error): void => toast({ title: 'That did not work', body: err.message, tone: 'bad' });
  const settle = () => qc.invalidateQueries({ queryKey: ['clips'] });
  const update = useMutation({
    mutationFn: (req: Req<'clips:update'>) => call('clips:update', req),
    onSettled: settle,
    onError,
  });
  const remove = useMutation({
    mutationFn: (req: Req<'clips:delete'>) => call('clips:delete', req),
    onSettled: settle,
    onError,
  });
  const reveal = useReveal('clip');
  const dragOut = useMutation({ mutationFn: (id: number) => call('clips:drag-out', { id }), onError });
  return { update, remove, reveal, dragOut };
}
