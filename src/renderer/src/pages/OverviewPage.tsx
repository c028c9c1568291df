import { useMutation, useQuery } from '@tanstack/react-query';
import { Activity } from 'lucide-react';
import { call } from '../transport';

export function OverviewPage(): React.JSX.Element {
  const info = useQuery({ queryKey: ['app:info'], queryFn: () => call('app:info', {}) });
  const ping = useMutation({
    mutationFn: async () => {
      const sent = performance.now();
      const text = `ping ${Date.now()}`;
      const answer = await call('app:echo', { text });
      if (answer.text !== text) throw new Error('echo came back changed');
      return Math.max(1, Math.round(performance.now() - sent));
    },
  });

  return (
    <section className="page">
      <header className="page-header">
        <h1>Overview</h1>
      </header>
      {info.isLoading && <p className="muted">Connecting to Reelsync…</p>}
      {info.isError && (
        <div className="callout error" role="alert">
          Reelsync is not reachable: {info.error.message}
        </div>
      )}
      {info.data && (
        <dl className="facts">
          <dt>Version</dt>
          <dd>{info.data.version}</dd>
          <dt>Mode</dt>
          <dd data-testid="app-mode">{info.data.mode}</dd>
          <dt>Data folder</dt>
          <dd className="mono">{info.data.dataDir}</dd>
          <dt>Running since</dt>
          <dd>{new Date(info.data.startedAt).toLocaleString()}</dd>
        </dl>
      )}
      <div className="row">
        <button type="button" className="button" onClick={() => ping.mutate()} disabled={ping.isPending}>
          <Activity size={16} aria-hidden="true" />
          Check connection
        </button>
        {ping.isSuccess && <span data-testid="ping-result">Round trip {ping.data} ms</span>}
        {ping.isError && <span className="error-text">{ping.error.message}</span>}
      </div>
    </section>
  );
}
