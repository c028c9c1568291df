import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/**
 * Writes an upload to a file. When the disk refuses a write (full, quota), it keeps taking and dropping the rest of
 * the body, up to `drainCap` bytes, and only then fails with that error: the client gets the answer (507) after
 * sending its body instead of a reset half-way. Past the cap it fails at once.
 */
export class DrainingFileSink extends Writable {
  private handle: FileHandle | undefined;
  private failure: Error | undefined;
  private dropped = 0;

  constructor(
    private readonly path: string,
    private readonly drainCap: number,
  ) {
    super({ highWaterMark: 4 * 1024 * 1024 });
  }

  override _construct(callback: (error?: Error | null) => void): void {
    open(this.path, 'w').then(
      (handle) => {
        this.handle = handle;
        callback();
      },
      (err: Error) => callback(err),
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.failure) {
      this.dropped += chunk.length;
      callback(this.dropped > this.drainCap ? this.failure : null);
      return;
    }
    this.writeAll(chunk).then(
      () => callback(),
      (err: Error) => {
        this.failure = err;
        callback();
      },
    );
  }

  /** Chunks queued while a write was on disk go out together: one system call instead of one per 64 KiB chunk. */
  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    const joined = chunks.length === 1 ? chunks[0]!.chunk : Buffer.concat(chunks.map((c) => c.chunk));
    this._write(joined, 'binary', callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.closeHandle().then(
      () => callback(this.failure ?? null),
      (err: Error) => callback(this.failure ?? err),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.closeHandle().then(
      () => callback(error),
      () => callback(error),
    );
  }

  private async writeAll(chunk: Buffer): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      const { bytesWritten } = await this.handle!.write(chunk, offset);
      offset += bytesWritten;
    }
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}
