import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FolderOpen, FolderPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { AddPathResult } from '../../../shared/contract/desktop';
import { typedPaths } from '../lib/dropped-paths';
import { call, transportKind } from '../transport';
import { DialogFrame } from './DialogFrame';
import { FolderPicker } from './FolderPicker';
import { NO_WATCH_OPTIONS, WatchOptionsFields, watchOptions, type WatchOptionsText } from './WatchOptionsFields';

const BADGE: Record<AddPathResult['outcome'], string> = {
  watching: 'badge-ok',
  'already-watched': 'badge-idle',
  rejected: 'badge-bad',
};

export const ADD_PATHS_HELP =
  transportKind === 'web'
    ? 'Choose a folder, or type or paste full paths, one per line. A browser does not tell a page where a dropped file or folder lives, so drop paths as text (a file manager’s “copy path”) instead.'
    : 'Choose a folder, drop folders or videos on the window, or type full paths, one per line.';

/**
 * The one way to add footage (Library, Settings, drops): folders become watched folders, a video file is watched on its
 * own; each path is answered with what happened to it (watched, already there, refused and why).
 */
export function AddPathsDialog({
  open,
  onOpenChange,
  dropped,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  dropped: string[];
}): React.JSX.Element {
  const qc = useQueryClient();
  const [text, setText] = useState('');
  const [options, setOptions] = useState<WatchOptionsText>(NO_WATCH_OPTIONS);
  const add = useMutation({
    mutationFn: (paths: string[]) => call('sync:add-paths', { paths, options: watchOptions(options) }),
    onSuccess: (r) => {
      if (r.results.every((x) => x.outcome !== 'rejected')) setText('');
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ['sync'] }),
  });
  const pick = useMutation({
    mutationFn: () => call('folders:choose', {}),
    onSuccess: (r) => {
      if (r.path) add.mutate([r.path]);
    },
  });
  // The web mode has no OS dialog: the app's own folder browser stands in for it.
  const [browsing, setBrowsing] = useState(false);
  const { reset } = add;
  useEffect(() => {
    // Dropped paths wait in the field like typed ones: the editor sees them and sets tags and options before Add.
    if (open && dropped.length) setText(dropped.join('\n'));
    if (!open) {
      reset();
      setOptions(NO_WATCH_OPTIONS);
    }
  }, [open, dropped, reset]);
  const typed = typedPaths(text);
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      className="narrow"
      testId="add-paths-dialog"
      title={
        <>
          <FolderPlus size={14} aria-hidden="true" /> Add footage
        </>
      }
    >
      <p className="muted">
        Folders are watched and their videos queued; a video file is watched on its own. {ADD_PATHS_HELP}
      </p>
      <form
        className="field"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.length) add.mutate(typed);
        }}
      >
        <textarea
          className="input mono notes"
          rows={3}
          placeholder="/Volumes/Shoot/Day 1"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-label="Paths to add"
        />
        <WatchOptionsFields value={options} onChange={setOptions} />
        <div className="row">
          <span className="muted">
            {typed.length
              ? `${typed.length} path${typed.length === 1 ? '' : 's'}`
              : 'full paths only: a relative path has nothing to be relative to'}
          </span>
          <span className="spacer" />
          <button
            type="button"
            className="button"
            disabled={pick.isPending || add.isPending}
            onClick={() => (transportKind === 'web' ? setBrowsing(true) : pick.mutate())}
            data-testid="choose-folder"
          >
            <FolderOpen size={14} aria-hidden="true" /> Choose folder…
          </button>
          <button type="submit" className="button primary" disabled={!typed.length || add.isPending}>
            Add
          </button>
        </div>
      </form>
      {(add.isError || pick.isError) && (
        <p className="error-text" role="alert">
          {(add.error ?? pick.error)?.message}
        </p>
      )}
      {add.data && (
        <ul className="add-results" data-testid="add-results">
          {add.data.results.map((r) => (
            <li key={r.path} className="add-result" data-outcome={r.outcome}>
              <span className={`badge ${BADGE[r.outcome]}`}>
                {r.outcome === 'already-watched' ? 'already watched' : r.outcome}
              </span>
              <div className="file-main">
                <div className="mono file-name" title={r.path}>
                  {r.path}
                </div>
                <div className="file-sub muted">{r.detail}</div>
              </div>
            </li>
          ))}
        </ul>
      )}
      {transportKind === 'web' && (
        <FolderPicker
          open={browsing}
          onOpenChange={setBrowsing}
          onChoose={(path) => {
            setBrowsing(false);
            add.mutate([path]);
          }}
        />
      )}
    </DialogFrame>
  );
}
