import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban, CloudDownload, RotateCcw, X } from 'lucide-react';
import type { DownloadView } from '../../../shared/contract/downloads';
import { useDownloads } from '../hooks/queries';
import { useDownloadProgress, type LiveDownload } from '../hooks/useLibraryEvents';
import { useToast } from '../hooks/useToast';
import { bytes, eta, fileName, rate } from '../lib/format';
import { call } from '../transport';
import { ProgressBar } from './ProgressBar';
import { EmptyState, ErrorState, LoadingState } from './States';
import { Tip } from './Tip';
import { PlainError } from './ReasonLine';

const BADGE: Record<DownloadView['state'], string> = {
  queued: 'badge-idle',
  downloading: 'badge-busy',
  done: 'badge-ok',
  failed: 'badge-bad',
  gone: 'badge-bad',
  cancelled: 'badge-idle',
};

function usd(n: number | null): string {
  if (n === null) return 'cost known after download';
  return n < 0.01 ? `$${n.toFixed(6)}` : `$${n.toFixed(4)}`;
}

function DownloadRow({ d, live }: { d: DownloadView; live: LiveDownload | undefined }): React.JSX.Element {
  const qc = useQueryClient();
  const toast = useToast();
  const onError = (err: Error): void => toast({ title: 'That did not work', body: err.message, tone: 'bad' });
  const settle = () => qc.invalidateQueries({ queryKey: ['downloads'] });
  const cancel = useMutation({ mutationFn: () => call('downloads:cancel', { id: d.id }), onSettled: settle, onError });
  const retry = useMutation({ mutationFn: () => call('downloads:retry', { id: d.id }), onSettled: settle, onError });
  const state = live?.state ?? d.state;
  const got = live?.bytes ?? d.bytes;
  const total = live?.total ?? d.total ?? d.quote.bytes;
  const active = state === 'queued' || state === 'downloading';
  return (
    <div className="download-row" data-testid="download-row" data-state={state}>
      <div className="file-main">
        <div className="file-name" title={d.blob}>
          {d.path ? fileName(d.path) : fileName(d.blob)}
        </div>
        <div className="file-sub muted">
          {d.kind} · {d.videoNo ?? d.bucket} · {usd(d.quote.usd)}
          {d.resumes > 0 ? ` · resumed ${d.resumes}×` : ''}
        </div>
      </div>
      <div className="file-status">
        <span className={`badge ${BADGE[state]}`}>{state === 'gone' ? 'gone from the library' : state}</span>
        {active && (
          <div className="inline-progress">
            <ProgressBar value={total ? (got / total) * 100 : null} label="Download progress" />
            <span className="muted">
              {bytes(got)}
              {total ? ` of ${bytes(total)}` : ''} · {rate(live?.rate ?? 0)} · {eta(live?.etaSeconds ?? null)}
            </span>
          </div>
        )}
        {state === 'done' && <span className="muted">{bytes(got)}</span>}
        {(state === 'failed' || state === 'gone') && d.error && <PlainError raw={d.error} />}
      </div>
      <div className="file-actions">
        {active && (
          <Tip text="Cancel">
            <button type="button" className="icon-button" aria-label="Cancel download" onClick={() => cancel.mutate()}>
              <X size={14} />
            </button>
          </Tip>
        )}
        {(state === 'failed' || state === 'cancelled') && (
          <Tip text="Retry (resumes where the server allows)">
            <button type="button" className="icon-button" aria-label="Retry download" onClick={() => retry.mutate()}>
              <RotateCcw size={14} />
            </button>
          </Tip>
        )}
        {state === 'gone' && <Ban size={14} className="muted" aria-label="No retries: the resource does not exist" />}
      </div>
    </div>
  );
}

/** Every download: progress with bytes, rate and ETA, its quoted cost, cancel/retry, and the "gone" state. */
export function DownloadsList(): React.JSX.Element {
  const list = useDownloads();
  const live = useDownloadProgress();
  if (list.isLoading) return <LoadingState label="Reading downloads…" />;
  if (list.isError) return <ErrorState title="Could not read the downloads" error={list.error} />;
  const rows = list.data?.downloads ?? [];
  if (rows.length === 0) {
    return (
      <EmptyState icon={CloudDownload} title="No downloads" testId="downloads-empty">
        <p>
          Clips of videos whose original is not on this computer download it first; their progress and cost show here.
        </p>
      </EmptyState>
    );
  }
  return (
    <div className="plain-list" data-testid="downloads-list">
      {rows.map((d) => (
        <DownloadRow key={d.id} d={d} live={live.get(d.id)} />
      ))}
    </div>
  );
}
