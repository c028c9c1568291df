import type { ReadWord } from '../analyzers/scene-text/ctc';
import type { RgbImage } from '../analyzers/scene-text/warp';
import { RequestThread, type RequestThreadEvent } from '../../threads/request-thread';
import { fromSceneTextSchema, type ToSceneText } from './scene-text-protocol';

function decode(raw: unknown): RequestThreadEvent<ReadWord[][]> {
  const message = fromSceneTextSchema.parse(raw);
  switch (message.type) {
    case 'ready':
      return { kind: 'ready', error: message.error };
    case 'lines':
      return { kind: 'answer', id: message.id, value: message.lines };
    case 'failed':
      return { kind: 'failed', id: message.id, message: message.message };
  }
}

/** PP-OCRv4 in a worker thread of its own (scene-text-worker.ts), models loaded there once and kept until close. */
export class SceneTextThread {
  private readonly thread = new RequestThread({
    name: 'scene-text',
    sibling: '../indexer/worker/scene-text-worker.ts',
    outPath: 'service/scene-text-worker.js',
    decode,
  });

  /** Starts the thread and waits for its models; rejects when they cannot load. */
  async start(): Promise<void> {
    await this.thread.start();
  }

  read(image: RgbImage): Promise<ReadWord[][]> {
    // A copy crosses: the caller's pixels are shared with the other analyzers.
    const data = image.data.slice();
    return this.thread.request(
      (id): ToSceneText => ({ type: 'read', id, data, width: image.width, height: image.height }),
      [data.buffer],
    );
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
