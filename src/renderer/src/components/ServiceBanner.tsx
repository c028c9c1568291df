import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, RotateCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ServiceState } from '../../../shared/contract/service';
import { unreachable } from '../../../shared/errors';
import { bridge, call } from '../transport';
import './service-banner.css';

/** The embedded service's state: asked once, then kept current by `service:state` events. */
export function useServiceState(): ServiceState | undefined {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: ['service'],
    queryFn: () => call('service:status', {}),
    refetchInterval: 15_000,
    retry: false,
  });
  useEffect(
    () =>
      bridge.on('service:state', (state) => {
        qc.setQueryData(['service'], state);
        // The connection line of Settings and the online state follow the service.
        void qc.invalidateQueries({ queryKey: ['settings'] });
        void qc.invalidateQueries({ queryKey: ['connectivity'] });
      }),
    [qc],
  );
  return query.data;
}

/** Seconds left until `at`, ticking once a second. */
function useSecondsUntil(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The state in a few words, for the banner and Settings. */
export function serviceStateText(s: ServiceState, secondsLeft: number | null): string {
  switch (s.state) {
    case 'none':
      return 'No embedded service (a cloud library is used)';
    case 'starting':
      return s.attempt === 0 ? 'Starting…' : `Starting again (attempt ${s.attempt})…`;
    case 'running':
      return `Running${s.restarts > 0 ? ` · restarted ${s.restarts} ${s.restarts === 1 ? 'time' : 'times'}` : ''}`;
    case 'restarting':
      return `Stopped unexpectedly · restarting (attempt ${s.attempt}${secondsLeft !== null ? `, next in ${secondsLeft} s` : ''})`;
    case 'crashed':
      return 'Down: it could not be restarted';
    case 'stopped':
      return 'Stopped';
    default:
      throw unreachable(s);
  }
}

function RestartButton(): React.JSX.Element {
  const qc = useQueryClient();
  const restart = useMutation({
    mutationFn: () => call('service:restart', {}),
    onSuccess: (state) => qc.setQueryData(['service'], state),
  });
  return (
    <button type="button" className="button" onClick={() => restart.mutate()} disabled={restart.isPending}>
      <RotateCw size={14} aria-hidden="true" className={restart.isPending ? 'spin' : undefined} />{' '}
      {restart.isPending ? 'Restarting…' : 'Restart service'}
    </button>
  );
}

/**
 * Whether the service was down (restarting or crashed) since it last ran: a start after that is a restart under way,
 * shown as such until the service runs, and not the banner vanishing as if all were well.
 */
function useWasDown(state: ServiceState | undefined): boolean {
  const [down, setDown] = useState(false);
  const kind = state?.state;
  useEffect(() => {
    if (kind === 'restarting' || kind === 'crashed') setDown(true);
    else if (kind !== 'starting') setDown(false);
  }, [kind]);
  return down || kind === 'restarting' || kind === 'crashed';
}

/** Above every page while the embedded service is down or coming back: what happened, and "Restart service". */
export function ServiceBanner(): React.JSX.Element | null {
  const state = useServiceState();
  const secondsLeft = useSecondsUntil(state?.state === 'restarting' ? state.nextAt : null);
  const wasDown = useWasDown(state);
  if (state?.state === 'starting' && wasDown)
    return (
      <div className="service-banner" role="status" data-testid="service-banner" data-state="starting">
        <RotateCw size={16} aria-hidden="true" className="spin" />
        <div className="service-banner-text">
          <strong>Restarting the library service…</strong>{' '}
          {state.attempt === 0 ? 'Starting it now.' : `Attempt ${state.attempt}.`} Search, uploads and thumbnails wait
          until it is back.
        </div>
        <button type="button" className="button" disabled>
          <RotateCw size={14} aria-hidden="true" className="spin" /> Restarting…
        </button>
      </div>
    );
  if (!state || (state.state !== 'restarting' && state.state !== 'crashed')) return null;
  const detail = state.reason;
  return (
    <div className="service-banner" role="alert" data-testid="service-banner" data-state={state.state}>
      <AlertTriangle size={16} aria-hidden="true" />
      <div className="service-banner-text">
        <strong>
          {state.state === 'crashed' ? 'The library service is down.' : 'The library service stopped unexpectedly.'}
        </strong>{' '}
        {state.state === 'crashed'
          ? 'It could not be restarted.'
          : `Restarting automatically (attempt ${state.attempt}${secondsLeft !== null ? `, next try in ${secondsLeft} s` : ''}).`}{' '}
        Search, uploads and thumbnails wait until it is back.
        <details>
          <summary>Details</summary>
          <span className="mono">{detail}</span>
          {state.state === 'crashed' && <div className="muted">Log: {state.logFile}</div>}
        </details>
      </div>
      <RestartButton />
    </div>
  );
}

/** The service line of Settings: the real state, never "Connected" while it is down. */
export function ServiceStatusLine(): React.JSX.Element | null {
  const state = useServiceState();
  const secondsLeft = useSecondsUntil(state?.state === 'restarting' ? state.nextAt : null);
  if (!state || state.state === 'none') return null;
  const ok = state.state === 'running';
  return (
    <div className="field">
      <span className="field-label">Embedded service</span>
      <span className="row" data-testid="service-status">
        <span className={`badge ${ok ? 'badge-ok' : 'badge-bad'}`}>{state.state}</span>
        <span>
          {serviceStateText(state, secondsLeft)}
          {state.state === 'running' ? ` · pid ${state.pid} · ${state.url}` : ''}
        </span>
        {!ok && state.state !== 'starting' && <RestartButton />}
      </span>
    </div>
  );
}
