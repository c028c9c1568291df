import { parentPort } from 'node:worker_threads';
import { sceneTextModels } from '../analyzers/scene-text/models';
import { readSceneText } from '../analyzers/scene-text/read-scene-text';
import { fromSceneTextSchema, toSceneTextSchema, type FromSceneText } from './scene-text-protocol';

/**
 * The scene-text thread: PP-OCRv4 on onnxruntime, whose `run` computes on the thread that calls it. Run here, OCR
 * takes a core of its own while the detectors (tfjs on wasm, which also compute on their calling thread) keep the
 * analysis thread's: on two cores they had taken turns on one. Started by SceneTextThread (scene-text-thread.ts).
 */

const port = parentPort;
if (!port) throw new Error('scene-text-worker.ts must run in a worker thread');

function send(message: FromSceneText): void {
  port?.postMessage(fromSceneTextSchema.parse(message));
}

const loading = sceneTextModels();
loading.then(
  () => send({ type: 'ready', error: null }),
  (err: unknown) => send({ type: 'ready', error: err instanceof Error ? err.message : String(err) }),
);

// One read at a time, in order: each uses the thread's whole core.
let queue: Promise<void> = Promise.resolve();

port.on('message', (raw: unknown) => {
  const message = toSceneTextSchema.parse(raw);
  const { id, data, width, height } = message;
  queue = queue.then(async () => {
    try {
      if (data.length !== width * height * 3)
        throw new Error(`${data.length} bytes is not a ${width}x${height} RGB picture`);
      const lines = await readSceneText(await loading, { data, width, height });
      send({ type: 'lines', id, lines: lines.map((l) => l.words) });
    } catch (err) {
      send({ type: 'failed', id, message: err instanceof Error ? err.message : String(err) });
    }
  });
});
