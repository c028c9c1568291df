import type { App } from 'electron';
import { describeError } from '../../shared/errors';
import type { Logger } from '../log';

/**
 * Clean quit: the first before-quit is held until `stop` has run (the queues stop taking work, running uploads and
 * downloads abort and go back to their rows, the database closes), then the app quits for real. A stop that hangs is
 * given `timeoutMs`; the rows recover on the next start either way.
 */
export function installCleanQuit(
  app: Pick<App, 'on' | 'quit'>,
  stop: () => Promise<void>,
  log: Logger,
  timeoutMs = 15_000,
): { quitting: () => boolean } {
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'stopped') return;
    event.preventDefault();
    if (state === 'stopping') return;
    state = 'stopping';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        log.warn({ timeoutMs }, 'stop took too long: quitting anyway');
        resolve();
      }, timeoutMs);
    });
    void Promise.race([
      stop().catch((err: unknown) => log.error({ err: describeError(err) }, 'stop failed')),
      timeout,
    ]).finally(() => {
      clearTimeout(timer);
      state = 'stopped';
      app.quit();
    });
  });
  return { quitting: () => state !== 'running' };
}
