import { useEffect, useState } from 'react';
import type { EventPayload } from '../../../shared/contract';
import { bridge } from '../transport';

export type AppStatus = EventPayload<'app:status'>['state'] | 'connecting';

/** Latest app state pushed by main, 'connecting' until the first event or call answers. */
export function useAppStatus(): AppStatus {
  const [status, setStatus] = useState<AppStatus>('connecting');
  useEffect(() => bridge.on('app:status', (payload) => setStatus(payload.state)), []);
  return status;
}
