import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FolderPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { AddPathResult } from '../../../shared/contract/desktop';
import { folderOf } from '../lib/format';
import { pathsFromText } from '../lib/dropped-paths';
import { call, transportKind } from '../transport';
import { DialogCloseButton } from './DialogCloseButton';

const BADGE: Record<AddPathResult['outcome'], string> = { watching: 'badge-ok', 'already-watched': 'badge-idle', rejected: 'badge-bad' };

/** Folders and files to sync, dropped or typed: each answered with what happened to it (watched, already there, refused and why). */
export function AddPathsDialog({ open, onOpenChange, dropped }: { open: boolean; onOpenChange: (o: boolean) => void; dropped: string[] }): React.JSX.Element {
  const qc = useQueryClient();
  const [text, setText] = useState('');
  const add = useMutation({
    mutationFn: (paths: string[]) => call('sync:add-paths', { paths }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['sync'] }),
  });
  const { mutate, reset } = add;
  useEffect(() => {
    if (open && dropped.length) mutate(dropped);
    if (!open) reset();
  }, [open, dropped, mutate, reset]);
  const typed = pathsFromText(text);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog narrow" aria-describedby={undefined} data-testid="add-paths-dialog">
          <Dialog.Title className="dialog-title">
            <FolderPlus size={14} aria-hidden="true" /> Add footage
          </Dialog.Title>
          <p className="muted">
            Folders become watched folders and their videos are queued. {transportKind === 'web' ? 'A browser does not tell a page where a dropped file lives, so drop paths as text (from a file manager’s “copy path”) or type them, one per line.' : 'Drop folders on the window, or type their paths.'}
          </p>
          <form
            className="field"
            onSubmit={(e) => {
              e.preventDefault();
              if (typed.length) add.mutate(typed);
            }}
          >
            <textarea className="input mono notes" rows={3} placeholder="/Volumes/Shoot/Day 1" value={text} onChange={(e) => setText(e.target.value)} aria-label="Paths to add" />
            <div className="row">
              <span className="muted">{typed.length ? `${typed.length} path${typed.length === 1 ? '' : 's'}` : 'absolute paths only'}</span>
              <span className="spacer" />
              <button type="submit" className="button primary" disabled={!typed.length || add.isPending}>
                Add
              </button>
            </div>
          </form>
          {add.isError && (
            <p className="error-text" role="alert">
              {add.error.message}
            </p>
          )}
          {add.data && (
            <ul className="add-results" data-testid="add-results">
              {add.data.results.map((r) => (
                <li key={r.path} className="add-result" data-outcome={r.outcome}>
                  <span className={`badge ${BADGE[r.outcome]}`}>{r.outcome === 'already-watched' ? 'already watched' : r.outcome}</span>
                  <div className="file-main">
                    <div className="mono file-name" title={r.path}>
                      {r.path}
                    </div>
                    <div className="file-sub muted">{r.detail}</div>
                  </div>
                  {r.outcome === 'rejected' && r.detail.startsWith('Reelsync syncs folders') && (
                    <button type="button" className="button" onClick={() => add.mutate([folderOf(r.path)])}>
                      Watch folder
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
