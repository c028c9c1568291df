import { NSFW_MODEL_ID, type NsfwClassifier, type NsfwScores } from '../analyzers/nsfw-model';
import { ModelThread, type ModelThreadEvent } from './model-thread';
import { fromNsfwSchema, type ToNsfw } from './nsfw-protocol';

function decode(raw: unknown): ModelThreadEvent<NsfwScores> {
  const message = fromNsfwSchema.parse(raw);
  switch (message.type) {
    case 'ready':
      return { kind: 'ready', error: message.error, version: message.version };
    case 'scores':
      return { kind: 'answer', id: message.id, value: message.scores };
    case 'failed':
      return { kind: 'failed', id: message.id, message: message.message };
  }
}

let thread: ModelThread<NsfwScores> | null = null;
let classifier: Promise<NsfwClassifier> | null = null;

/**
 * nsfwjs in a thread of its own (nsfw-worker.ts), started once for the process and kept: the indexer's drawing
 * signals classify there while human's detectors compute on the analysis thread. The thread holds the process only
 * while a frame is out, so nothing has to close it.
 */
export function loadNsfwThreadClassifier(): Promise<NsfwClassifier> {
  classifier ??= (async () => {
    thread ??= new ModelThread({
      name: 'nsfwjs',
      sibling: './nsfw-worker.ts',
      outPath: 'service/nsfw-worker.js',
      decode,
      unrefWhenIdle: true,
    });
    const running = thread;
    const version = (await running.start()) ?? 'nsfwjs';
    return {
      id: NSFW_MODEL_ID,
      version,
      classify: (rgb, width, height) => {
        // A copy crosses: the caller's pixels are shared with the other analyzers.
        const data = rgb.slice();
        return running.request((id): ToNsfw => ({ type: 'classify', id, data, width, height }), [data.buffer]);
      },
    };
  })();
  classifier.catch(() => {
    classifier = null;
  });
  return classifier;
}
