import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Pause, Play, RotateCcw } from 'lucide-react';
import type { FileView } from '../../../shared/contract/sync';
import { FileRow } from '../components/FileRow';
import { ProgressBar } from '../components/ProgressBar';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { UploadHistory } from '../components/UploadHistory';
import { useSyncStatus } from '../hooks/queries';
import { useFileActions } from '../hooks/useFileActions';
import { useProxyProgress, useUploadProgress } from '../hooks/useSyncEvents';
import { bytes, eta, rate } from '../lib/format';
import { call } from '../transport';

const ACTIVE = new Set<FileView['status']>([
  'waiting',
  'queued',
  'uploading',
  'indexing',
  'failed',
  'index_failed',
  'cancelled',
  'skipped',
]);
const ORDER: FileView['status'][] = [
  'uploading',
  'indexing',
  'queued',
  'waiting',
  'failed',
  'index_failed',
  'cancelled',
  'skipped',
];

/** The upload queue (per-file and total progress, speed, ETA; pause/resume; cancel/retry per file), files refused with why, and the finished transfers. */
export function UploadsPage(): React.JSX.Element {
  const qc = useQueryClient();
  const status = useSyncStatus();
  const progress = useUploadProgress();
  const proxies = useProxyProgress();
  const actions = useFileActions();
  const files = useQuery({
    queryKey: ['sync', 'files', 'queue'],
    queryFn: async () => {
      // Skipped files too: a file that will never upload must say why where uploads are watched.
      const states = ['pending', 'linked', 'skipped'] as const;
      const pages = await Promise.all(states.map((state) => call('sync:files', { page: 1, size: 500, state })));
      return pages
        .flatMap((p) => p.files)
        .filter((f) => ACTIVE.has(f.status))
        .sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || a.id - b.id);
    },
    retry: false,
  });
  const queue = useMutation({
    mutationFn: async (pause: boolean): Promise<void> => {
      if (pause) await call('sync:pause', {});
      else await call('sync:resume', {});
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ['sync'] }),
  });
  const retryAll = useMutation({
    mutationFn: () => call('sync:retry', {}),
    onSettled: () => qc.invalidateQueries({ queryKey: ['sync'] }),
  });
  const paused = status.data?.paused ?? null;
  const live = [...progress.values()];
  const sent = live.reduce((n, p) => n + p.bytes, 0);
  const total = live.reduce((n, p) => n + p.total, 0);
  const speed = live.reduce((n, p) => n + p.rate, 0);
  const failed = (status.data?.byStatus.failed ?? 0) + (status.data?.byStatus.index_failed ?? 0);
  return (
    <section className="page page-fill">
      <header className="page-header row">
        <h1>Uploads</h1>
        <span className="spacer" />
        {failed > 0 && (
          <button type="button" className="button" onClick={() => retryAll.mutate()}>
            <RotateCcw size={14} aria-hidden="true" /> Retry all failed
          </button>
        )}
        <button
          type="button"
          className="button primary"
          data-testid="queue-toggle"
          disabled={status.isError || queue.isPending}
          onClick={() => queue.mutate(paused === null)}
        >
          {paused ? <Play size={14} aria-hidden="true" /> : <Pause size={14} aria-hidden="true" />}
          {paused ? 'Resume queue' : 'Pause queue'}
        </button>
      </header>
      {paused?.reason === 'insufficient-balance' && (
        <div className="callout warn" role="alert" data-testid="balance-notice">
          The library service refused an upload for lack of balance. The queue is paused; add credits, then resume.
        </div>
      )}
      {paused?.reason === 'unauthorized' && (
        <div className="callout warn" role="alert">
          The library service refused the API key. Check the key in Settings, then resume.
        </div>
      )}
      {paused?.reason === 'user' && (
        <div className="callout" data-testid="paused-notice">
          The queue is paused. New files are still found; nothing is checked or uploaded until you resume.
        </div>
      )}
      {live.length > 0 && (
        <div className="total-progress" data-testid="total-progress">
          <ProgressBar value={(sent / Math.max(1, total)) * 100} label="Total upload progress" />
          <span className="muted">
            {bytes(sent)} of {bytes(total)} · {rate(speed)} · {eta(speed > 0 ? (total - sent) / speed : null)} left
          </span>
        </div>
      )}
      {status.isError && <ErrorState title="The library service is not connected" error={status.error} />}
      {files.isLoading && <LoadingState label="Reading the queue…" />}
      {files.isError && <ErrorState title="Could not read the queue" error={files.error} />}
      {files.isSuccess && files.data.length === 0 && (
        <EmptyState icon={CheckCircle2} title="Everything is synced" testId="uploads-empty">
          <p>New files in your watched folders show up here while they upload and index.</p>
        </EmptyState>
      )}
      {files.isSuccess && files.data.length > 0 && (
        <div className="plain-list" data-testid="upload-list">
          {files.data.map((f) => (
            <FileRow key={f.id} file={f} progress={progress.get(f.id)} proxy={proxies.get(f.id)} actions={actions} />
          ))}
        </div>
      )}
      <UploadHistory />
    </section>
  );
}
