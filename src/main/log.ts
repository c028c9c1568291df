import pino from 'pino';

export type Logger = pino.Logger;

/** Root logger; modules take a child with `module` set. Quiet under tests unless REELSYNC_LOG is set. */
export function createLogger(name = 'reelsync'): Logger {
  const level = process.env.REELSYNC_LOG ?? (process.env.VITEST ? 'silent' : 'info');
  return pino({ name, level }, pino.destination(2));
}
