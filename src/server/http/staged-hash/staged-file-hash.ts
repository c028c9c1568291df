import { RequestThread, type RequestThreadEvent } from '../../threads/request-thread';
import { fromStagedHashSchema, type ToStagedHash } from './staged-hash-protocol';

interface Answer {
  hashed: number;
  sha256: string | null;
}

function decode(raw: unknown): RequestThreadEvent<Answer> {
  const message = fromStagedHashSchema.parse(raw);
  switch (message.type) {
    case 'ready':
      return { kind: 'ready', error: message.error };
    case 'done':
      return { kind: 'answer', id: message.id, value: { hashed: message.hashed, sha256: message.sha256 } };
    case 'failed':
      return { kind: 'failed', id: message.id, message: message.message };
  }
}

/** A message to the thread before its id is given. */
type Unsent<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * How far the upload runs ahead before the thread is told to hash on: a message per 1 MiB write cost the request's
 * thread more (postMessage: 1.2 s for 3 GB) than the hash it moved away; at 16 MiB there are ~200 messages for 3 GB.
 */
const STEP_BYTES = 16 * 1024 * 1024;

let thread: RequestThread<Answer> | null = null;
let nextJob = 1;

/** An upload's SHA-256, computed from its staged file while the upload writes it. */
export interface StagedFileHash {
  /** The upload has written the file up to byte `upTo`: the thread may hash that far. */
  written(upTo: number): void;
  /** The SHA-256 of the file's first `size` bytes, once the upload has written them all. */
  digest(size: number): Promise<string>;
  /** The upload failed: stop following the file. */
  drop(): void;
}

/**
 * Follows a staged upload in the hashing thread (staged-hash-worker.ts, one for the process, started on first use and
 * kept): the bytes are hashed from the page cache a step behind the writes, on a core of their own, instead of on the
 * request's thread between parsing and writing, and what is hashed is what reached the disk.
 */
export function followStagedFile(path: string): StagedFileHash {
  thread ??= new RequestThread({
    name: 'upload hashing',
    // Relative to threads/request-thread.ts, which resolves it.
    sibling: '../http/staged-hash/staged-hash-worker.ts',
    outPath: 'service/staged-hash-worker.js',
    decode,
    unrefWhenIdle: true,
  });
  const running = thread;
  const job = nextJob++;
  let failure: Error | null = null;
  let told = 0;
  const ask = (message: Unsent<ToStagedHash>): Promise<Answer> => running.request((id) => ({ ...message, id }));
  return {
    written(upTo) {
      if (upTo - told < STEP_BYTES) return;
      told = upTo;
      ask({ type: 'read', job, path, upTo }).catch(
        (err: unknown) => (failure ??= err instanceof Error ? err : new Error(String(err))),
      );
    },
    async digest(size) {
      const answer = await ask({ type: 'digest', job, path, size });
      if (failure) throw failure;
      if (answer.sha256 === null || answer.hashed !== size)
        throw new Error(`the upload's hash covers ${answer.hashed} of its ${size} bytes`);
      return answer.sha256;
    },
    drop() {
      ask({ type: 'drop', job }).catch(() => {});
    },
  };
}
