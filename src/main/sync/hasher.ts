import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export interface HashOptions {
  signal?: AbortSignal;
  /** Called with bytes read so far, at most every chunk. */
  onProgress?: (bytes: number) => void;
}

const CHUNK = 4 * 1024 * 1024;

/** Streamed SHA-256 of a file in constant memory; hex digest. */
export async function sha256File(path: string, options: HashOptions = {}): Promise<string> {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = createReadStream(path, { highWaterMark: CHUNK, signal: options.signal });
  for await (const chunk of stream) {
    // The stream may already hold buffered chunks when the abort lands: stop on the next one regardless.
    options.signal?.throwIfAborted();
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
    options.onProgress?.(bytes);
  }
  // A stream destroyed by the abort can end its iteration quietly: never return a digest of part of the file.
  options.signal?.throwIfAborted();
  return hash.digest('hex');
}
