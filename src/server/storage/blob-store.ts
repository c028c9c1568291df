import type { Readable, Writable } from 'node:stream';

const BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,62}$/;

/** An inclusive byte range of a blob, as HTTP Range gives it. */
export interface BlobRange {
  start: number;
  end: number;
}

/** A blob as a file on this machine, for ffmpeg, ffprobe and exiftool; release() removes it when it was a copy. */
export interface LocalBlobFile {
  path: string;
  release(): Promise<void>;
}

/** A blob found by list(): its name inside the bucket and when it was last stored. */
export interface ListedBlob {
  blob: string;
  modifiedMs: number;
}

/**
 * A blob being stored while its bytes arrive (BlobStore.receive), beside a complete local copy the caller stages for
 * the media tools.
 */
export interface BlobReceiver {
  /** Where to write the bytes as they arrive; null when the store takes the staged copy whole (local disk: a rename). */
  readonly copy: Writable | null;
  /** Stores the blob once every byte arrived and `copy` was ended; the staged file is gone afterwards. */
  finish(staged: string): Promise<void>;
  /** Leaves no blob behind: aborts a partial upload, deletes a stored one. */
  abort(): Promise<void>;
}

/**
 * Where originals, keyframes and posters live: the data folder (LocalBlobStore) or an S3-compatible store
 * (S3BlobStore). A blob is addressed by the service's bucket (reelsync-<account>) and a relative name
 * (videos/<no>/<file>); every address is checked by blobKey before it reaches either backend.
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /** Throws a clear error when the backend cannot be used (unreachable, bucket missing, credentials refused). */
  check(): Promise<void>;
  /** The blob's size in bytes; null when it does not exist or the address is invalid. */
  size(bucket: string, blob: string): Promise<number | null>;
  /** Streams the blob (or one range of it); a missing blob surfaces as an error on the stream. */
  read(bucket: string, blob: string, range?: BlobRange): Readable;
  /** Stores a finished file under bucket/blob; the file is gone afterwards (moved or uploaded, then removed). */
  adopt(bucket: string, blob: string, file: string): Promise<void>;
  /**
   * Stores an upload under bucket/blob as it arrives, for the caller to finish or abort. `expectedBytes`, when the
   * caller can foresee the length, lets S3 take it as one streamed PUT; a wrong guess costs time, never data.
   */
  receive(bucket: string, blob: string, expectedBytes?: number | null): BlobReceiver;
  /** Stores a stream under bucket/blob without holding it in memory. */
  writeFrom(bucket: string, blob: string, source: Readable): Promise<void>;
  delete(bucket: string, blob: string): Promise<void>;
  /** Removes every blob under a prefix folder, e.g. keyframes/<videoNo> (not keyframes/<videoNo>0). */
  deletePrefix(bucket: string, prefix: string): Promise<void>;
  /** Every blob under a prefix folder (as deletePrefix), page by page; nothing when the folder does not exist. */
  list(bucket: string, prefix: string): AsyncIterable<ListedBlob>;
  /** The blob as a local file for the media tools, or null when it does not exist; release it when done. */
  localFile(bucket: string, blob: string): Promise<LocalBlobFile | null>;
}

/** `bucket/blob` when both names are valid and the blob stays inside its bucket; null otherwise. */
export function blobKey(bucket: string, blob: string): string | null {
  if (!BUCKET_PATTERN.test(bucket)) return null;
  if (!blob || blob.includes('\0') || blob.includes('\\') || blob.startsWith('/')) return null;
  if (blob.split('/').some((part) => part === '' || part === '.' || part === '..')) return null;
  return `${bucket}/${blob}`;
}
