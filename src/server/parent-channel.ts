import { fromServiceSchema, toServiceSchema, type FromService, type ToService } from '../common/service-ipc';

/** Electron's `process.parentPort` in a utilityProcess: messages arrive as `{ data }`. */
interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

export interface ParentChannel {
  send(message: FromService): void;
  onMessage(listener: (message: ToService) => void): void;
  /** The parent went away (a Node fork's channel closed): the service must not outlive the app. */
  onGone(listener: () => void): void;
}

/**
 * The channel to the app that started this service, when one did: Electron's utilityProcess (parentPort) or a
 * Node fork (process.send). A service started from a terminal has none. Invalid messages are reported and dropped.
 */
export function parentChannel(report: (problem: string) => void): ParentChannel | null {
  const port = (process as NodeJS.Process & { parentPort?: ParentPort }).parentPort;
  const accept = (listener: (m: ToService) => void) => (raw: unknown) => {
    const parsed = toServiceSchema.safeParse(raw);
    if (parsed.success) listener(parsed.data);
    else report(`ignored an invalid message from the app: ${parsed.error.message}`);
  };
  if (port) {
    return {
      send: (m) => port.postMessage(fromServiceSchema.parse(m)),
      onMessage: (listener) => port.on('message', (e) => accept(listener)(e.data)),
      // A utility process dies with its parent; nothing to watch.
      onGone: () => {},
    };
  }
  const send = process.send?.bind(process);
  if (!send) return null;
  return {
    send: (m) => void send(fromServiceSchema.parse(m)),
    onMessage: (listener) => process.on('message', accept(listener)),
    onGone: (listener) => process.once('disconnect', listener),
  };
}
