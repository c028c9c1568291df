import { useQuery } from '@tanstack/react-query';
import { Circle, Pause, RefreshCw } from 'lucide-react';
import { useSettings, useSyncStatus } from '../hooks/queries';
import { useUploadProgress } from '../hooks/useSyncEvents';
import { rate } from '../lib/format';
import { call, transportKind } from '../transport';
import { ProgressBar } from './ProgressBar';

/** Always shows: sync state, queue progress, balance state and online/offline. */
export function StatusBar(): React.JSX.Element {
  const info = useQuery({ queryKey: ['app:info'], queryFn: () => call('app:info', {}), refetchInterval: 10_000 });
  const status = useSyncStatus();
  const settings = useSettings();
  const progress = useUploadProgress();
  const online = info.isSuccess && !info.isError;
  const s = status.data;
  const by = s?.byStatus ?? {};
  const busy = (by.waiting ?? 0) + (by.queued ?? 0) + (by.uploading ?? 0) + (by.indexing ?? 0);
  const done = by.indexed ?? 0;
  const total = busy + done + (by.failed ?? 0) + (by.index_failed ?? 0);
  const speed = [...progress.values()].reduce((n, p) => n + p.rate, 0);
  const conn = settings.data?.connection;
  const syncState = !online
    ? 'offline'
    : status.isError
      ? 'not connected'
      : s?.paused
        ? `paused (${s.paused.reason === 'user' ? 'by you' : s.paused.reason === 'insufficient-balance' ? 'balance too low' : 'key refused'})`
        : busy > 0
          ? `syncing ${busy}`
          : 'idle';
  return (
    <footer className="status-bar" role="status">
      <span className={`status-dot ${online ? 'ok' : 'bad'}`} data-testid="connection-state">
        <Circle size={8} fill="currentColor" aria-hidden="true" />
        {online ? 'Connected' : info.isLoading ? 'Connecting…' : 'Offline'}
      </span>
      <span className="status-item" data-testid="sync-state">
        {s?.paused ? <Pause size={12} aria-hidden="true" /> : <RefreshCw size={12} className={busy > 0 && online ? 'spin' : undefined} aria-hidden="true" />}
        {syncState}
      </span>
      {total > 0 && (
        <span className="status-item status-queue" data-testid="queue-progress">
          <ProgressBar value={(done / total) * 100} label="Queue progress" tone="ok" />
          {done}/{total} searchable{speed > 0 ? ` · ${rate(speed)}` : ''}
        </span>
      )}
      <span className="spacer" />
      <span className="status-item" data-testid="balance-state" title="The library service answers uploads with a balance error when credits run out">
        {s?.paused?.reason === 'insufficient-balance' ? <span className="error-text">Balance too low: uploads paused</span> : 'Balance: no shortage reported'}
      </span>
      <span className="status-item">{conn?.state === 'connected' ? (conn.mode === 'embedded' ? 'Embedded library' : 'Cloud library') : 'No library service'}</span>
      <span>{transportKind === 'web' ? 'Web mode' : 'Desktop'}</span>
      {info.data && <span data-testid="app-version">v{info.data.version}</span>}
    </footer>
  );
}
