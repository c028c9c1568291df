import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { fromStagedHashSchema, toStagedHashSchema, type FromStagedHash } from './staged-hash-protocol';

/**
 * The uploads' hashing thread: it reads each staged upload from the page cache a step behind the bytes the upload
 * has written and feeds them to SHA-256, so the request's own thread only parses and writes. Started by
 * followStagedFile (staged-file-hash.ts); messages are handled in order, one at a time.
 */

const port = parentPort;
if (!port) throw new Error('staged-hash-worker.ts must run in a worker thread');

function send(message: FromStagedHash): void {
  port?.postMessage(fromStagedHashSchema.parse(message));
}

interface Followed {
  fd: number;
  hash: Hash;
  hashed: number;
}

const READ_BYTES = 1024 * 1024;
const buffer = Buffer.allocUnsafe(READ_BYTES);
const jobs = new Map<number, Followed>();

function followed(job: number, path: string): Followed {
  let state = jobs.get(job);
  if (!state) {
    state = { fd: openSync(path, 'r'), hash: createHash('sha256'), hashed: 0 };
    jobs.set(job, state);
  }
  return state;
}

function hashTo(state: Followed, upTo: number): void {
  while (state.hashed < upTo) {
    const read = readSync(state.fd, buffer, 0, Math.min(READ_BYTES, upTo - state.hashed), state.hashed);
    if (read === 0) throw new Error(`the staged upload ends at ${state.hashed} bytes, before the ${upTo} written`);
    state.hash.update(buffer.subarray(0, read));
    state.hashed += read;
  }
}

function forget(job: number): void {
  const state = jobs.get(job);
  jobs.delete(job);
  if (state) closeSync(state.fd);
}

port.on('message', (raw: unknown) => {
  const message = toStagedHashSchema.parse(raw);
  try {
    switch (message.type) {
      case 'read': {
        const state = followed(message.job, message.path);
        hashTo(state, message.upTo);
        send({ type: 'done', id: message.id, hashed: state.hashed, sha256: null });
        return;
      }
      case 'digest': {
        const state = followed(message.job, message.path);
        hashTo(state, message.size);
        forget(message.job);
        send({ type: 'done', id: message.id, hashed: state.hashed, sha256: state.hash.digest('hex') });
        return;
      }
      case 'drop':
        forget(message.job);
        send({ type: 'done', id: message.id, hashed: 0, sha256: null });
        return;
    }
  } catch (err) {
    if (message.type !== 'read') forget(message.job);
    send({ type: 'failed', id: message.id, message: err instanceof Error ? err.message : String(err) });
  }
});

send({ type: 'ready', error: null });
