import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileView } from '../../../shared/contract/sync';
import { useToast } from '../hooks/useToast';
import { fileName } from '../lib/format';
import { call } from '../transport';
import { ConfirmDialog } from './ConfirmDialog';
import { REMOVE_UNDO_MS, removeEach, useRemoveLater } from '../hooks/useRemoveLater';

/**
 * Asks before removing files' videos from the library (one file, or the Library's selection), then waits
 * REMOVE_UNDO_MS with an Undo before asking the service: its delete cannot be taken back, so the undo window sits
 * before it. Closing the app meanwhile removes nothing. The files on disk are never touched; a failure (the service
 * offline) comes back as a toast in plain words.
 */
export function RemoveFromLibraryDialog({
  files,
  onClose,
}: {
  files: readonly FileView[] | null;
  onClose: () => void;
}): React.JSX.Element {
  const qc = useQueryClient();
  const removeLater = useRemoveLater();
  const toast = useToast();
  const file = files?.length === 1 ? files[0] : undefined;
  const what = file ? fileName(file.path) : `${files?.length ?? 0} files`;
  const confirm = (list: readonly FileView[]): void =>
    removeLater({
      what,
      from: 'from the library',
      stays: list.length === 1 ? 'The file on disk stays.' : 'The files on disk stay.',
      run: async () => {
        const r = await removeEach(
          list.map((f) => f.id),
          (fileId) => call('sync:remove', { fileId }),
        );
        void qc.invalidateQueries({ queryKey: ['sync'] });
        void qc.invalidateQueries({ queryKey: ['search'] });
        if (r.failed === 0)
          return { title: 'Removed from the library', body: `${what} stays on disk.`, tone: 'ok' as const };
        return {
          title: r.removed === 0 ? `Nothing was removed: ${what}` : `${r.removed} removed, ${r.failed} kept`,
          body: r.firstError ?? undefined,
          tone: 'bad' as const,
        };
      },
    });
  const forget = useMutation({
    mutationFn: (id: number) => call('sync:remove', { fileId: id }),
    onSettled: () => void qc.invalidateQueries({ queryKey: ['sync'] }),
    onError: (err) => toast({ title: 'The row stays', body: err.message, tone: 'bad' }),
  });
  if (file?.status === 'deleted' && file.videoNo === null) {
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
      open={files !== null && files.length > 0}
      onOpenChange={(o) => !o && onClose()}
      testId="remove-dialog"
      title={file ? <>Remove “{fileName(file.path)}” from the library?</> : <>Remove {what} from the library?</>}
      cancelLabel="Keep"
      confirmLabel="Remove from library"
      tone="danger"
      confirmTestId="remove-confirm"
      confirmDisabled={!files?.length}
      onConfirm={() => {
        if (!files?.length) return;
        confirm(files);
        onClose();
      }}
    >
      <p>
        {file
          ? 'The library deletes this video, its index and its search results. The file on your disk is not touched, and Reelsync stops uploading it: choose Retry on it later to add it back.'
          : 'The library deletes these videos, their index and their search results. The files on your disk are not touched, and Reelsync stops uploading them: choose Retry on a file later to add it back.'}{' '}
        You have {REMOVE_UNDO_MS / 1000} seconds to undo.
      </p>
    </ConfirmDialog>
  );
}
