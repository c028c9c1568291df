import { useMutation } from '@tanstack/react-query';
import { FolderOpen } from 'lucide-react';
import { useDestinations } from '../hooks/queries';
import { call } from '../transport';
import { Choice } from './Choice';

/** Where a clip goes: the default folder, an allowed folder by path (browser), or a folder granted by the dialog (desktop). */
export type OutputFolder =
  { kind: 'default' } | { kind: 'path'; path: string } | { kind: 'grant'; grant: string; path: string };

const DEFAULT = '__default__';

/** The "Save to" field of a clip: a choice of allowed folders in a browser, the native folder picker in the desktop app. */
export function OutputFolderField({
  value,
  onChange,
}: {
  value: OutputFolder;
  onChange: (v: OutputFolder) => void;
}): React.JSX.Element {
  const destinations = useDestinations();
  const choose = useMutation({
    mutationFn: () => call('destinations:choose', { purpose: 'clips' }),
    onSuccess: (r) => r.chosen && onChange({ kind: 'grant', ...r.chosen }),
  });
  const roots = destinations.data?.roots ?? [];
  // The default is the clips folder Settings name: Reelsync's own, or the one chosen there (said by its path).
  const clipsDir = destinations.data?.clipsDir;
  const builtinClips = roots.some((r) => r.builtin && r.path === clipsDir);
  const defaultLabel = !clipsDir || builtinClips ? "Reelsync's clips folder" : `Clips folder (${clipsDir})`;
  if (destinations.data?.dialog) {
    return (
      <div className="field full">
        <span className="field-label">Save to</span>
        <div className="row">
          <span className="mono" data-testid="clip-folder">
            {value.kind === 'default' ? defaultLabel : value.path}
          </span>
          <span className="spacer" />
          <button type="button" className="button" onClick={() => choose.mutate()} disabled={choose.isPending}>
            <FolderOpen size={14} aria-hidden="true" /> Choose folder…
          </button>
        </div>
        {choose.isError && <p className="error-text">{choose.error.message}</p>}
      </div>
    );
  }
  const options = [
    { value: DEFAULT, label: defaultLabel },
    ...roots.filter((r) => !r.builtin && r.path !== clipsDir).map((r) => ({ value: r.path, label: r.path })),
  ];
  return (
    <Choice
      label="Save to"
      value={value.kind === 'path' ? value.path : DEFAULT}
      options={options}
      onChange={(v) => onChange(v === DEFAULT ? { kind: 'default' } : { kind: 'path', path: v })}
    />
  );
}
