import { Circle, Pause, RefreshCw, WifiOff } from 'lucide-react';
import { useAppInfo, useLibraryOffline, useSettings, useSyncStatus } from '../hooks/queries';
import { useUploadProgress } from '../hooks/useSyncEvents';
import { rate } from '../lib/format';
import { queueCounts } from '../lib/queue-counts';
import { transportKind } from '../transport';
import { ProgressBar } from './ProgressBar';

/** Always shows: sync state, queue progress, balance state and online/offline. */
export function StatusBar(): React.JSX.Element {
  const info = useAppInfo();
  const libraryOffline = useLibraryOffline();
  const status = useSyncStatus();
  const settings = useSettings();
  const progress = useUploadProgress();
  const online = info.isSuccess && !info.isError;
  const s = status.data;
  const { busy, failed, indexed: done, skipped, total, searchable } = queueCounts(s?.byStatus);
  const speed = [...progress.values()].reduce((n, p) => n + p.rate, 0);
  const conn = settings.data?.connection;
  const syncState = !online
    ? 'offline'
    : libraryOffline
      ? busy > 0
        ? `offline · ${busy} waiting to upload`
        : 'offline · uploads wait'
      : status.isError
        ? 'not connected'
        : s?.paused
          ? `paused (${s.paused.reason === 'user' ? 'by you' : s.paused.reason === 'insufficient-balance' ? 'balance too low' : 'key refused'})`
          : busy > 0
            ? `syncing ${busy}`
            : 'idle';
  return (
    <footer className="status-bar" role="status">
      <span className={`status-dot ${online && !libraryOffline ? 'ok' : 'bad'}`} data-testid="connection-state">
        {libraryOffline ? (
          <WifiOff size={12} aria-hidden="true" />
        ) : (
          <Circle size={8} fill="currentColor" aria-hidden="true" />
        )}
        {!online
          ? info.isLoading
            ? 'Connecting…'
            : 'Offline: Reelsync is not reachable'
          : libraryOffline
            ? 'Offline: library service unreachable'
            : 'Connected'}
      </span>
      <span className="status-item" data-testid="sync-state">
        {s?.paused ? (
          <Pause size={12} aria-hidden="true" />
        ) : (
          <RefreshCw size={12} className={busy > 0 && online ? 'spin' : undefined} aria-hidden="true" />
        )}
        {syncState}
      </span>
      {total > 0 && (
        <span className="status-item status-queue" data-testid="queue-progress">
          <ProgressBar
            value={((total - busy) / total) * 100}
            label="Queue progress"
            tone={failed > 0 ? 'warn' : 'ok'}
          />
          {done}/{searchable} searchable
          {failed > 0 && (
            <span className="error-text" data-testid="status-failed">
              {' '}
              · {failed} failed
            </span>
          )}
          {skipped > 0 ? ` · ${skipped} skipped` : ''}
          {speed > 0 ? ` · ${rate(speed)}` : ''}
        </span>
      )}
      <span className="spacer" />
      <span
        className="status-item"
        data-testid="balance-state"
        title="Nothing has been refused for lack of balance. If the library refuses an upload or download for that, uploads pause and this says so."
      >
        {s?.paused?.reason === 'insufficient-balance' ? (
          <span className="error-text">Balance too low: uploads paused</span>
        ) : !online || libraryOffline || status.isError ? (
          <span className="muted">Balance unknown while offline</span>
        ) : (
          'Balance OK'
        )}
      </span>
      <span className="status-item">
        {conn?.state === 'connected'
          ? conn.mode === 'embedded'
            ? 'Embedded library'
            : 'Cloud library'
          : 'No library service'}
      </span>
      <span>{transportKind === 'web' ? 'Web mode' : 'Desktop'}</span>
      {info.data && <span data-testid="app-version">v{info.data.version}</span>}
    </footer>
  );
}
