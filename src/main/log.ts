import { renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { ensurePrivateDirSync, ensurePrivateFileSync } from '../common/private-files';

export type Logger = pino.Logger;

/** Where the desktop app keeps its logs (the main process's own and the embedded service's): `<data>/logs`. */
export function logsDir(dataDir: string): string {
  return join(dataDir, 'logs');
}

/** A log file over this size is moved aside to `<name>.1` when the app starts, so logs never grow without end. */
const ROTATE_BYTES = 10 * 1024 * 1024;

/** Moves `file` to `file.1` (replacing an older one) when it has grown past `maxBytes`. */
export function rotateLogFile(file: string, maxBytes = ROTATE_BYTES): void {
  try {
    if (statSync(file).size > maxBytes) renameSync(file, `${file}.1`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * Root logger; modules take a child with `module` set. Quiet under tests unless REELSYNC_LOG is set. With `file`,
 * lines also go to that file (the desktop app has no terminal to read stderr from).
 */
export function createLogger(name = 'reelsync', options: { file?: string } = {}): Logger {
  const level = process.env.REELSYNC_LOG ?? (process.env.VITEST ? 'silent' : 'info');
  if (!options.file) return pino({ name, level }, pino.destination(2));
  ensurePrivateDirSync(join(options.file, '..'));
  rotateLogFile(options.file);
  ensurePrivateFileSync(options.file);
  // Synchronous like stderr: the last lines before a crash are the ones a bug report needs.
  const streams = pino.multistream([
    { level: 'trace', stream: pino.destination(2) },
    { level: 'trace', stream: pino.destination({ dest: options.file, append: true, sync: true }) },
  ]);
  return pino({ name, level }, streams);
}
