import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FolderOutput, Trash2 } from 'lucide-react';
import { useDestinations } from '../hooks/queries';
import { call } from '../transport';
import { PathForm } from './PathForm';
import { ErrorState } from './States';
import { Tip } from './Tip';

/** The folders exports, clips and downloads may be written to by path: the data folder's own, plus the user's. */
export function DestinationRoots(): React.JSX.Element {
  const qc = useQueryClient();
  const destinations = useDestinations();
  const configured = destinations.data?.roots.filter((r) => !r.builtin).map((r) => r.path) ?? [];
  const set = useMutation({
    mutationFn: (paths: string[]) => call('destinations:set-roots', { paths }),
    onSuccess: (view) => {
      qc.setQueryData(['destinations'], view);
    },
  });
  if (destinations.isError) return <ErrorState title="Output folders are not available" error={destinations.error} />;
  return (
    <>
      <ul className="folder-list" data-testid="destination-roots">
        {destinations.data?.roots.map((r) => (
          <li key={r.path} className="folder-item">
            <FolderOutput size={16} aria-hidden="true" />
            <div className="file-main">
              <div className="mono">{r.path}</div>
              <div className="muted">{r.builtin ? "Reelsync's own folder" : 'Added by you'}</div>
            </div>
            {!r.builtin && (
              <Tip text="Stop allowing writes here (files stay)">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove ${r.path}`}
                  onClick={() => set.mutate(configured.filter((p) => p !== r.path))}
                >
                  <Trash2 size={14} />
                </button>
              </Tip>
            )}
          </li>
        ))}
      </ul>
      <PathForm
        label="Output folder path"
        name="destination-path"
        placeholder="/Volumes/Edits/markers"
        button="Allow folder"
        pending={set.isPending}
        error={set.error}
        submit={(p) => set.mutateAsync([...configured, p])}
      />
      <p className="muted">
        Exports, clips and downloads are written only inside these folders
        {destinations.data?.dialog ? ', or where you choose in a dialog' : ''}. System, hidden and home folders
        themselves are refused.
      </p>
    </>
  );
}
