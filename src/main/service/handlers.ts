import type { ServiceState } from '../../shared/contract/service';
import { unreachable } from '../../shared/errors';
import type { HandlerMap } from '../ipc/registry';

export interface ServiceControl {
  state(): ServiceState;
  restart(): Promise<ServiceState>;
}

/** The embedded service's state and the "Restart service" action, as contract channels. */
export function serviceHandlers(control: ServiceControl) {
  return {
    'service:status': () => control.state(),
    'service:restart': () => control.restart(),
  } satisfies HandlerMap;
}

/** The state in words, for the connection line of Settings when the service is not running. */
export function serviceProblem(s: ServiceState): string | null {
  switch (s.state) {
    case 'running':
    case 'none':
      return null;
    case 'starting':
      return 'the embedded library service is starting';
    case 'restarting':
      return `the embedded library service stopped and is restarting (attempt ${s.attempt}): ${s.reason}`;
    case 'crashed':
      return `the embedded library service is down: ${s.reason}`;
    case 'stopped':
      return 'the embedded library service is stopped';
    default:
      throw unreachable(s);
  }
}
