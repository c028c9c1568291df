import { NSFW_MODEL_ID } from '../analyzers/nsfw-model';
import type { Label } from '../types';
import { RequestThread, type RequestThreadEvent } from '../../threads/request-thread';
import { fromNsfwSchema, type ToNsfw } from './nsfw-protocol';

function decode(raw: unknown): RequestThreadEvent<Label[]> {
  const message = fromNsfwSchema.parse(raw);
  switch (message.type) {
    case 'ready':
      return { kind: 'ready', error: message.error, version: message.version };
    case 'labels':
      return { kind: 'answer', id: message.id, value: message.labels };
    case 'failed':
      return { kind: 'failed', id: message.id, message: message.message };
  }
}

/** Whether a frame is drawn, judged in the nsfwjs thread (see judgeDrawn in drawn-frame.ts). */
export interface DrawnJudge {
  /** The classifier's version, as the in-process one (nsfw-model.ts) reports it. */
  version: string;
  /** The frame's drawing labels; none when it is not drawn. */
  judge(rgb: Uint8Array, width: number, height: number): Promise<Label[]>;
}

let thread: RequestThread<Label[]> | null = null;
let judge: Promise<DrawnJudge> | null = null;

/**
 * nsfwjs and the drawn-look measures in a thread of their own (nsfw-worker.ts), started once for the process and
 * kept: the indexer's drawing signals are read there while human's detectors compute on the analysis thread. The
 * thread holds the process only while a frame is out, so nothing has to close it.
 */
export function loadDrawnJudge(): Promise<DrawnJudge> {
  judge ??= (async () => {
    thread ??= new RequestThread({
      name: 'nsfwjs',
      sibling: '../indexer/worker/nsfw-worker.ts',
      outPath: 'service/nsfw-worker.js',
      decode,
      unrefWhenIdle: true,
    });
    const running = thread;
    const version = (await running.start()) ?? NSFW_MODEL_ID;
    return {
      version,
      judge: (rgb, width, height) => {
        // A copy crosses: the caller's pixels are shared with the other analyzers.
        const data = rgb.slice();
        return running.request((id): ToNsfw => ({ type: 'judge', id, data, width, height }), [data.buffer]);
      },
    };
  })();
  judge.catch(() => {
    judge = null;
  });
  return judge;
}
