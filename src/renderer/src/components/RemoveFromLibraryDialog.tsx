import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileView } from '../../../shared/contract/sync';
import { useToast } from '../hooks/useToast';
import { fileName } from '../lib/format';
import { call } from '../transport';
import { ConfirmDialog } from './ConfirmDialog';
import { ErrorState } from './States';

/**
 * Asks before removing a file's video from the library: the service deletes it and the app stops uploading the file,
 * which stays on disk untouched. A failure (the service offline) stays in the dialog in plain words.
 */
export function RemoveFromLibraryDialog({
  file,
  onClose,
}: {
  file: FileView | null;
  onClose: () => void;
}): React.JSX.Element {
  const qc = useQueryClient();
  const toast = useToast();
  const remove = useMutation({
    mutationFn: (id: number) => call('sync:remove', { fileId: id }),
    onSuccess: (_, id) => {
      void qc.invalidateQueries({ queryKey: ['sync'] });
      void qc.invalidateQueries({ queryKey: ['search'] });
      toast({
        title: 'Removed from the library',
        body: file && file.id === id ? `${fileName(file.path)} stays on disk.` : undefined,
      });
      onClose();
    },
  });
  const close = (): void => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={file !== null}
      onOpenChange={(o) => !o && close()}
      testId="remove-dialog"
      title={<>Remove “{file ? fileName(file.path) : ''}” from the library?</>}
      cancelLabel="Keep"
      confirmLabel={remove.isPending ? 'Removing…' : 'Remove from library'}
      tone="danger"
      confirmTestId="remove-confirm"
      confirmDisabled={remove.isPending || file === null}
      onConfirm={() => file && remove.mutate(file.id)}
    >
      <p>
        The library deletes this video, its index and its search results. The file on your disk is not touched, and
        Reelsync stops uploading it: choose Retry on it later to add it back.
      </p>
      {remove.isError && <ErrorState title="Nothing was removed" error={remove.error} />}
    </ConfirmDialog>
  );
}
