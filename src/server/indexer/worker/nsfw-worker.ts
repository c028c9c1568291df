import { parentPort } from 'node:worker_threads';
import { judgeDrawn } from '../analyzers/drawn-frame';
import { loadWasmBackend } from '../analyzers/human-engine';
import { nsfwOn } from '../analyzers/nsfw-model';
import { fromNsfwSchema, toNsfwSchema, type FromNsfw } from './nsfw-protocol';

/**
 * The drawing judge's thread: nsfwjs on a tfjs-wasm backend of its own (brought up as human brings up the analysis
 * thread's, so the scores are the same), whose kernels compute on the thread that calls them, and the drawn-look
 * measures beside it (plain JavaScript on the pixels). Run here, they take the core the detectors leave, instead of
 * taking turns with them on the analysis thread. Started by loadDrawnJudge (nsfw-thread.ts).
 */

const port = parentPort;
if (!port) throw new Error('nsfw-worker.ts must run in a worker thread');

function send(message: FromNsfw): void {
  port?.postMessage(fromNsfwSchema.parse(message));
}

const loading = loadWasmBackend().then(nsfwOn);
loading.then(
  (classifier) => send({ type: 'ready', error: null, version: classifier.version }),
  (err: unknown) => send({ type: 'ready', error: err instanceof Error ? err.message : String(err) }),
);

// One frame at a time, in order: each uses the thread's whole core.
let queue: Promise<void> = Promise.resolve();

port.on('message', (raw: unknown) => {
  const { id, data, width, height } = toNsfwSchema.parse(raw);
  queue = queue.then(async () => {
    try {
      if (data.length !== width * height * 3)
        throw new Error(`${data.length} bytes is not a ${width}x${height} RGB picture`);
      send({ type: 'labels', id, labels: await judgeDrawn(await loading, data, width, height) });
    } catch (err) {
      send({ type: 'failed', id, message: err instanceof Error ? err.message : String(err) });
    }
  });
});
