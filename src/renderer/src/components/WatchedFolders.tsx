import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Eye, EyeOff, FolderOpen, FolderPlus } from 'lucide-react';
import { useState } from 'react';
import type { WatchFolderView } from '../../../shared/contract/sync';
import { useFolders, useLibraryFolders } from '../hooks/queries';
import { useToast } from '../hooks/useToast';
import { call } from '../transport';
import { AddPathsDialog } from './AddPathsDialog';
import { ConfirmDialog } from './ConfirmDialog';
import { EmptyState, ErrorState, LoadingState } from './States';
import { Tip } from './Tip';
import './watched-folders.css';

const NO_DROP: string[] = [];
const WATCH_MODE: Record<'auto' | 'on' | 'off', string> = {
  auto: 'watched for changes',
  on: 'checked for changes every few seconds (network drive)',
  off: 'watched through system events only',
};
/** How long the Undo of "Stop watching" stays on screen ("Watch again" on the row stays for good). */
export const STOP_UNDO_MS = 12_000;

/**
 * Settings' watched folders. Stopping a watch asks first and only stops noticing changes: the folder's files stay in
 * the library and keep playing from this computer; Undo (or "Watch again") resumes and rescans it.
 */
export function WatchedFolders(): React.JSX.Element {
  const qc = useQueryClient();
  const toast = useToast();
  const folders = useFolders();
  const libraryFolders = useLibraryFolders();
  const [adding, setAdding] = useState(false);
  const [asking, setAsking] = useState<WatchFolderView | null>(null);
  const libraryFolderName = (id: number | null): string | undefined =>
    id === null
      ? undefined
      : (libraryFolders.data?.folders.find((x) => x.folderId === id)?.name ?? `library folder ${id}`);
  const refresh = (): void => void qc.invalidateQueries({ queryKey: ['sync'] });
  const resume = useMutation({
    mutationFn: (id: number) => call('folders:resume', { id }),
    onSettled: refresh,
    onError: (err) => toast({ title: 'Could not watch the folder again', body: err.message, tone: 'bad' }),
  });
  const stop = useMutation({
    mutationFn: (f: WatchFolderView) => call('folders:stop', { id: f.id }),
    onSettled: refresh,
    onSuccess: (_, f) => {
      setAsking(null);
      toast({
        title: 'Stopped watching',
        body: `${f.path}: its files stay in the library.`,
        durationMs: STOP_UNDO_MS,
        action: {
          label: 'Undo',
          altText: `Watch ${f.path} again`,
          testId: 'undo-stop',
          run: () => resume.mutate(f.id),
        },
      });
    },
  });
  const list = folders.data?.folders ?? [];
  return (
    <>
      {folders.isError && <ErrorState title="Folders are not available" error={folders.error} />}
      {folders.isLoading && <LoadingState label="Reading folders…" />}
      {folders.data && list.length === 0 && (
        <EmptyState icon={FolderOpen} title="No folders yet">
          <p>Add a folder with footage, or a single video, and Reelsync uploads what it finds and keeps watching it.</p>
        </EmptyState>
      )}
      {list.length > 0 && (
        <ul className="folder-list" data-testid="folder-list">
          {list.map((f) => (
            <li
              key={f.id}
              className={`folder-item${f.stoppedAt === null ? '' : ' stopped'}`}
              data-testid="folder-item"
              data-state={f.stoppedAt === null ? 'watching' : 'stopped'}
            >
              <FolderOpen size={16} aria-hidden="true" />
              <div className="file-main">
                <div className="mono">{f.path}</div>
                <div className="muted">
                  {f.stoppedAt === null
                    ? `Files into ${f.folderName ?? libraryFolderName(f.folderId) ?? 'the library’s default folder'} · ${WATCH_MODE[f.polling]}`
                    : 'Not watched: its files stay in the library; new or changed files are not uploaded'}
                  {f.tags.length ? ` · tags ${f.tags.join(', ')}` : ''}
                  {f.ignore.length ? ` · ignores ${f.ignore.join(', ')}` : ''}
                </div>
              </div>
              {f.stoppedAt === null ? (
                <Tip text="Stop watching (files stay in the library)">
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Stop watching ${f.path}`}
                    data-testid="stop-watching"
                    onClick={() => setAsking(f)}
                  >
                    <EyeOff size={14} />
                  </button>
                </Tip>
              ) : (
                <button
                  type="button"
                  className="button"
                  data-testid="watch-again"
                  disabled={resume.isPending}
                  onClick={() => resume.mutate(f.id)}
                >
                  <Eye size={14} aria-hidden="true" /> Watch again
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(o) => {
          if (!o) {
            stop.reset();
            setAsking(null);
          }
        }}
        testId="stop-watching-dialog"
        title={<>Stop watching “{asking?.path ?? ''}”?</>}
        cancelLabel="Keep watching"
        confirmLabel={stop.isPending ? 'Stopping…' : 'Stop watching'}
        tone="danger"
        confirmTestId="stop-watching-confirm"
        confirmDisabled={stop.isPending || asking === null}
        onConfirm={() => asking && stop.mutate(asking)}
      >
        <p>
          Reelsync stops noticing new and changed files in this folder. Everything already in the library stays there
          and keeps playing from this computer, and uploads under way finish. You can watch it again at any time.
        </p>
        {stop.isError && <ErrorState title="Still watching" error={stop.error} />}
      </ConfirmDialog>
      {!folders.isError && (
        <div className="row">
          <button
            type="button"
            className="button primary"
            onClick={() => setAdding(true)}
            data-testid="settings-add-footage"
          >
            <FolderPlus size={14} aria-hidden="true" /> Add folder or file…
          </button>
          <AddPathsDialog open={adding} onOpenChange={setAdding} dropped={NO_DROP} />
        </div>
      )}
    </>
  );
}
