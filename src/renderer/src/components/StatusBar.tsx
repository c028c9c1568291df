import { useQuery } from '@tanstack/react-query';
import { Circle } from 'lucide-react';
import { useAppStatus } from '../hooks/useAppStatus';
import { call, transportKind } from '../transport';

export function StatusBar(): React.JSX.Element {
  const info = useQuery({ queryKey: ['app:info'], queryFn: () => call('app:info', {}) });
  const pushed = useAppStatus();
  const online = info.isSuccess && !info.isError;
  const state = info.isError ? 'offline' : pushed === 'connecting' && online ? 'ready' : pushed;
  return (
    <footer className="status-bar" role="status">
      <span className={`status-dot ${online ? 'ok' : 'bad'}`} data-testid="connection-state">
        <Circle size={8} fill="currentColor" aria-hidden="true" />
        {online ? 'Connected' : info.isLoading ? 'Connecting…' : 'Offline'}
      </span>
      <span>App {state}</span>
      <span className="spacer" />
      <span>{transportKind === 'web' ? 'Web mode' : 'Desktop'}</span>
      {info.data && <span data-testid="app-version">v{info.data.version}</span>}
    </footer>
  );
}
