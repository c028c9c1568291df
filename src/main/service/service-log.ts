import { closeSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateDirSync, PRIVATE_FILE } from '../../common/private-files';

/** Default cap of service.log: past it, the file becomes service.log.1 (the previous .1 is dropped) and a new one starts. */
export const SERVICE_LOG_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The embedded service's log in the app's log folder: its stdout and stderr (pino lines) and the supervisor's own
 * lines (starts, exits, restarts), capped by rotating to one previous file. Writes are synchronous appends: the
 * service logs at most a few lines a second, and a line must be on disk when the process that wrote it dies.
 */
export class ServiceLog {
  private fd: number | null = null;
  private size = 0;

  constructor(
    readonly file: string,
    private readonly maxBytes = SERVICE_LOG_MAX_BYTES,
  ) {}

  /** A line from the supervisor, timestamped like the rest of the file's readers expect. */
  note(text: string): void {
    this.write(`${new Date().toISOString()} [supervisor] ${text}\n`);
  }

  write(chunk: string | Buffer): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    try {
      if (this.fd === null) this.open();
      if (this.size > 0 && this.size + bytes.length > this.maxBytes) this.rotate();
      if (this.fd === null) return;
      writeSync(this.fd, bytes);
      this.size += bytes.length;
    } catch {
      // A full or read-only disk must not take the supervisor down: the log is best effort.
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private open(): void {
    ensurePrivateDirSync(dirname(this.file));
    this.fd = openSync(this.file, 'a', PRIVATE_FILE);
    this.size = statSync(this.file).size;
  }

  private rotate(): void {
    this.close();
    renameSync(this.file, `${this.file}.1`);
    this.open();
  }
}
