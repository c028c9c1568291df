import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { UploadHistoryEntry, UploadResult } from '../../../shared/contract/sync';
import { unreachable } from '../../../shared/errors';
import { bytes, fileName, folderOf, rate } from '../lib/format';
import { call } from '../transport';

const PAGE = 50;

function resultBadge(result: UploadResult): { label: string; tone: string } {
  switch (result) {
    case 'uploaded':
      return { label: 'uploaded', tone: 'badge-ok' };
    case 'found':
      return { label: 'already in library', tone: 'badge-idle' };
    case 'retrying':
      return { label: 'will retry', tone: 'badge-busy' };
    case 'failed':
      return { label: 'failed', tone: 'badge-bad' };
    default:
      throw unreachable(result);
  }
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function HistoryRow({ entry }: { entry: UploadHistoryEntry }): React.JSX.Element {
  const badge = resultBadge(entry.result);
  const speed = entry.result === 'uploaded' && entry.ms > 0 ? rate((entry.bytes * 1000) / entry.ms) : null;
  return (
    <li className="history-row" data-testid="history-row" data-result={entry.result} data-path={entry.path}>
      <span className={`badge ${badge.tone}`}>{badge.label}</span>
      <div className="file-main">
        <div className="file-name" title={entry.path}>
          {fileName(entry.path) || 'unknown file'}
        </div>
        <div className="file-sub muted">
          {folderOf(entry.path)} · {new Date(entry.finishedAt).toLocaleString()}
        </div>
        {entry.error && (
          <details className="history-error">
            <summary className="error-text">Why it did not upload</summary>
            <span className="mono">{entry.error}</span>
          </details>
        )}
      </div>
      <span className="history-figures muted">
        {bytes(entry.bytes)} in {seconds(entry.ms)}
        {speed ? ` · ${speed}` : ''}
      </span>
    </li>
  );
}

/** Finished upload attempts, newest first, with size, time, speed and result; failed ones say why. */
export function UploadHistory(): React.JSX.Element | null {
  const [page, setPage] = useState(1);
  const history = useQuery({
    queryKey: ['sync', 'history', page],
    queryFn: () => call('uploads:history', { page, size: PAGE }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (!history.data || history.data.total === 0) return null;
  const { entries, total, failed } = history.data;
  const pages = Math.ceil(total / PAGE);
  return (
    <section className="upload-history" data-testid="upload-history" aria-label="Finished uploads">
      <header className="row">
        <h2>Finished</h2>
        <span className="muted">
          {total} {total === 1 ? 'transfer' : 'transfers'}
          {failed > 0 && <span className="error-text"> · {failed} failed</span>}
        </span>
        <span className="spacer" />
        {pages > 1 && (
          <>
            <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Newer
            </button>
            <span className="muted">
              {page} / {pages}
            </span>
            <button type="button" className="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Older
            </button>
          </>
        )}
      </header>
      <ul className="plain-list history-list">
        {entries.map((e) => (
          <HistoryRow key={e.id} entry={e} />
        ))}
      </ul>
    </section>
  );
}
