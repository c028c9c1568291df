import { useQueryClient } from '@tanstack/react-query';
import { Clipboard, Scissors, Trash2 } from 'lucide-react';
import type { FileView } from '../../../shared/contract/sync';
import { removeEach } from '../hooks/useRemoveLater';
import { useToast } from '../hooks/useToast';
import { fileName } from '../lib/format';
import { call } from '../transport';
import { removeBlocker, saveClipBlocker } from './LibraryRow';

/**
 * Actions on the Library's selection: save each file whole as a clip (then tag and export them on the Clips page),
 * copy their paths, remove them from the library (asks, then waits for an Undo). Files an action cannot take are
 * counted in the button's label, not silently dropped.
 */
export function LibrarySelectionActions({
  files,
  onRemove,
}: {
  files: readonly FileView[];
  onRemove: (files: FileView[]) => void;
}): React.JSX.Element {
  const qc = useQueryClient();
  const toast = useToast();
  const clippable = files.filter((f) => saveClipBlocker(f) === null);
  const removable = files.filter((f) => removeBlocker(f) === null);
  const saveClips = async (): Promise<void> => {
    const r = await removeEach(clippable, (f) =>
      call('clips:save', {
        videoNo: f.videoNo ?? '',
        videoName: fileName(f.path),
        start: 0,
        end: f.duration ?? 0,
        mode: 'copy',
      }),
    );
    void qc.invalidateQueries({ queryKey: ['clips'] });
    toast(
      r.failed === 0
        ? { title: `Saving ${r.removed} clips`, body: 'They appear on the Clips page as they are cut.', tone: 'ok' }
        : { title: `${r.failed} clips were not saved`, body: r.firstError ?? undefined, tone: 'bad' },
    );
  };
  const copyPaths = (): void => {
    const text = files.map((f) => f.path).join('\n');
    navigator.clipboard.writeText(text).then(
      () => toast({ title: `${files.length} paths copied` }),
      () => toast({ title: 'Could not reach the clipboard', tone: 'bad' }),
    );
  };
  const left = (n: number): string => (n < files.length ? ` (${n} of ${files.length})` : '');
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={clippable.length === 0}
        onClick={() => void saveClips()}
        data-testid="selection-save-clips"
        title="Each file whole, as a clip on the Clips page: tag and export them there"
      >
        <Scissors size={14} aria-hidden="true" /> Save as clips{left(clippable.length)}
      </button>
      <button type="button" className="button" onClick={copyPaths}>
        <Clipboard size={14} aria-hidden="true" /> Copy paths
      </button>
      <button
        type="button"
        className="button"
        disabled={removable.length === 0}
        onClick={() => onRemove(removable)}
        data-testid="selection-remove"
      >
        <Trash2 size={14} aria-hidden="true" /> Remove…{left(removable.length)}
      </button>
    </>
  );
}
