import { useQueryClient } from '@tanstack/react-query';
import { Tag, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { ClipView } from '../../../shared/contract/clips';
import { REMOVE_UNDO_MS, removeEach, useRemoveLater } from '../hooks/useRemoveLater';
import { useToast } from '../hooks/useToast';
import { call } from '../transport';
import { ConfirmDialog } from './ConfirmDialog';
import { ExportDialog } from './ExportDialog';

/** Export, tag and remove the selected clips. Removing waits for an Undo; the clip files on disk stay. */
export function ClipSelectionActions({
  clips,
  onDone,
}: {
  clips: readonly ClipView[];
  onDone: () => void;
}): React.JSX.Element {
  const qc = useQueryClient();
  const toast = useToast();
  const removeLater = useRemoveLater();
  const [tag, setTag] = useState('');
  const [asking, setAsking] = useState(false);
  const what = `${clips.length} clips`;
  const addTag = async (): Promise<void> => {
    const t = tag.trim();
    if (!t) return;
    const r = await removeEach(
      clips.filter((c) => !c.tags.includes(t)),
      (c) => call('clips:update', { id: c.id, tags: [...c.tags, t] }),
    );
    void qc.invalidateQueries({ queryKey: ['clips'] });
    setTag('');
    toast(
      r.failed === 0
        ? { title: `Tagged ${what} “${t}”`, tone: 'ok' }
        : { title: `${r.failed} clips were not tagged`, body: r.firstError ?? undefined, tone: 'bad' },
    );
  };
  const remove = (): void => {
    const ids = clips.map((c) => c.id);
    onDone();
    removeLater({
      what,
      from: 'from Clips',
      stays: 'The clip files on disk stay.',
      run: async () => {
        const r = await removeEach(ids, (id) => call('clips:delete', { id }));
        void qc.invalidateQueries({ queryKey: ['clips'] });
        return r.failed === 0
          ? { title: `Removed ${what}`, tone: 'ok' }
          : { title: `${r.removed} removed, ${r.failed} kept`, body: r.firstError ?? undefined, tone: 'bad' };
      },
    });
  };
  return (
    <>
      <ExportDialog ids={clips.map((c) => c.id)} disabled={clips.length === 0} />
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void addTag();
        }}
      >
        <input
          className="input selection-tag"
          aria-label="Tag for the selected clips"
          placeholder="Tag"
          maxLength={100}
          value={tag}
          onChange={(e) => setTag(e.target.value)}
        />
        <button type="submit" className="button" disabled={tag.trim() === ''} data-testid="selection-tag">
          <Tag size={14} aria-hidden="true" /> Tag
        </button>
      </form>
      <button type="button" className="button" onClick={() => setAsking(true)} data-testid="selection-remove">
        <Trash2 size={14} aria-hidden="true" /> Remove…
      </button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        testId="remove-clips-dialog"
        title={<>Remove {what}?</>}
        cancelLabel="Keep"
        confirmLabel="Remove clips"
        tone="danger"
        confirmTestId="remove-confirm"
        onConfirm={() => {
          setAsking(false);
          remove();
        }}
      >
        <p>
          They leave the Clips list and the exports. The clip files on your disk are not deleted. You have{' '}
          {REMOVE_UNDO_MS / 1000} seconds to undo.
        </p>
      </ConfirmDialog>
    </>
  );
}
