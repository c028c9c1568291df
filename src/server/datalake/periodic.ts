import type { Logger } from 'pino';

/**
 * Runs `task` now and then every `periodMs` (never two at once: a run still going skips the next); a failure is
 * logged as `what failed`. Returns the stop, which waits for a run in progress.
 */
export function runPeriodically(
  periodMs: number,
  task: () => Promise<unknown>,
  log: Pick<Logger, 'error'>,
  what: string,
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const run = (): void => {
    if (running) return;
    running = task()
      .catch((err: unknown) => log.error({ err: err instanceof Error ? err.message : String(err) }, `${what} failed`))
      .finally(() => (running = null));
  };
  run();
  const timer = setInterval(run, periodMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
