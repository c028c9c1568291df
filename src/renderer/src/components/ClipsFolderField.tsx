import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Scissors } from 'lucide-react';
import { useDestinations } from '../hooks/queries';
import { call } from '../transport';
import { PathForm } from './PathForm';

/** The folder new clips are saved into by default: any folder inside the output folders above, or Reelsync's own. */
export function ClipsFolderField(): React.JSX.Element {
  const qc = useQueryClient();
  const destinations = useDestinations();
  const builtin = destinations.data?.roots.find((r) => r.builtin && /[\\/]clips$/.test(r.path))?.path;
  const current = destinations.data?.clipsDir;
  const set = useMutation({
    mutationFn: (p: string | null) => call('destinations:set-clips-dir', { path: p }),
    onSuccess: (view) => {
      qc.setQueryData(['destinations'], view);
    },
  });
  return (
    <>
      <ul className="folder-list">
        <li className="folder-item" data-testid="clips-folder">
          <Scissors size={16} aria-hidden="true" />
          <div className="file-main">
            <div className="mono" data-testid="clips-folder-path">
              {current ?? '…'}
            </div>
            <div className="muted">
              {current && current !== builtin
                ? 'New clips are saved here'
                : "New clips are saved in Reelsync's own folder"}
            </div>
          </div>
          {current && builtin && current !== builtin && (
            <button type="button" className="button" onClick={() => set.mutate(null)} disabled={set.isPending}>
              Use Reelsync’s folder
            </button>
          )}
        </li>
      </ul>
      <PathForm
        label="Clips folder path"
        name="clips-folder"
        placeholder="/Volumes/Edits/clips"
        button="Save clips here"
        pending={set.isPending}
        error={set.error}
        submit={(p) => set.mutateAsync(p)}
        testId="clips-folder"
      />
      <p className="muted">The folder must lie inside one of the output folders above; it is created when missing.</p>
    </>
  );
}
