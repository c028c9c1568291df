import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileView } from '../../../shared/contract/sync';
import { useToast } from '../hooks/useToast';
import { fileName } from '../lib/format';
import { call } from '../transport';
import { ConfirmDialog } from './ConfirmDialog';

/** How long "Remove from library" waits for an Undo before the service deletes the video (which cannot be undone). */
export const REMOVE_UNDO_MS = 8_000;

/**
 * Asks before removing a file's video from the library, then waits REMOVE_UNDO_MS with an Undo before asking the
 * service: its delete cannot be taken back, so the undo window sits before it. Closing the app meanwhile removes
 * nothing. The file on disk is never touched; a failure (the service offline) comes back as a toast in plain words.
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
  const removeLater = (f: FileView): void => {
    const name = fileName(f.path);
    const timer = setTimeout(() => {
      call('sync:remove', { fileId: f.id })
        .then(() => toast({ title: 'Removed from the library', body: `${name} stays on disk.`, tone: 'ok' }))
        .catch((err: unknown) =>
          toast({
            title: `Nothing was removed: ${name}`,
            body: err instanceof Error ? err.message : String(err),
            tone: 'bad',
          }),
        )
        .finally(() => {
          void qc.invalidateQueries({ queryKey: ['sync'] });
          void qc.invalidateQueries({ queryKey: ['search'] });
        });
    }, REMOVE_UNDO_MS);
    toast({
      title: `Removing ${name} from the library`,
      body: `In ${Math.round(REMOVE_UNDO_MS / 1000)} seconds. The file on disk stays.`,
      durationMs: REMOVE_UNDO_MS,
      action: {
        label: 'Undo',
        altText: `Keep ${name} in the library`,
        testId: 'undo-remove',
        run: () => {
          clearTimeout(timer);
          toast({ title: 'Kept in the library', body: name });
        },
      },
    });
  };
  const forget = useMutation({
    mutationFn: (id: number) => call('sync:remove', { fileId: id }),
    onSettled: () => void qc.invalidateQueries({ queryKey: ['sync'] }),
    onError: (err) => toast({ title: 'The row stays', body: err.message, tone: 'bad' }),
  });
  if (file && file.status === 'deleted' && file.videoNo === null) {
    return (
      <ConfirmDialog
        open
        onOpenChange={(o) => !o && onClose()}
        testId="remove-dialog"
        title={<>Forget “{fileName(file.path)}”?</>}
        cancelLabel="Keep"
        confirmLabel="Forget it"
        tone="primary"
        confirmTestId="remove-confirm"
        onConfirm={() => {
          forget.mutate(file.id);
          onClose();
        }}
      >
        <p>It is gone from disk and never reached the library, so only this row is left. Nothing else changes.</p>
      </ConfirmDialog>
    );
  }
  return (
    <ConfirmDialog
      open={file !== null}
      onOpenChange={(o) => !o && onClose()}
      testId="remove-dialog"
      title={<>Remove “{file ? fileName(file.path) : ''}” from the library?</>}
      cancelLabel="Keep"
      confirmLabel="Remove from library"
      tone="danger"
      confirmTestId="remove-confirm"
      confirmDisabled={file === null}
      onConfirm={() => {
        if (!file) return;
        removeLater(file);
        onClose();
      }}
    >
      <p>
        The library deletes this video, its index and its search results. The file on your disk is not touched, and
        Reelsync stops uploading it: choose Retry on it later to add it back. You have {REMOVE_UNDO_MS / 1000} seconds
        to undo.
      </p>
    </ConfirmDialog>
  );
}
