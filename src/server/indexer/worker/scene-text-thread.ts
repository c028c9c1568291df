import type { Worker } from 'node:worker_threads';
import { spawnWorker, workerEntry } from '../../../common/spawn-worker';
import type { ReadWord } from '../analyzers/scene-text/ctc';
import type { RgbImage } from '../analyzers/scene-text/warp';
import { fromSceneTextSchema, type ToSceneText } from './scene-text-protocol';

interface Pending {
  resolve(lines: ReadWord[][]): void;
  reject(err: unknown): void;
}

/**
 * PP-OCRv4 in a worker thread of its own (scene-text-worker.ts), models loaded there once and kept until close. A
 * thread that dies fails the reads it had; the next start() brings up a new one.
 */
export class SceneTextThread {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /** Starts the thread and waits for its models; rejects when they cannot load. */
  start(): Promise<void> {
    this.ready ??= this.spawn();
    return this.ready;
  }

  async read(image: RgbImage): Promise<ReadWord[][]> {
    await this.start();
    const worker = this.worker;
    if (!worker) throw new Error('the scene-text thread has ended');
    const id = this.nextId++;
    // A copy crosses: the caller's pixels are shared with the other analyzers.
    const data = image.data.slice();
    const message: ToSceneText = { type: 'read', id, data, width: image.width, height: image.height };
    return new Promise<ReadWord[][]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(message, [data.buffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }

  private spawn(): Promise<void> {
    // Without its query: a module that tsx loads inside a worker thread (the analysis thread, run from the sources)
    // has one (?tsx-namespace=...), and workerEntry tells a source caller by its .ts ending.
    const caller = new URL(import.meta.url);
    caller.search = '';
    const worker = spawnWorker(
      workerEntry(caller.href, { sibling: './scene-text-worker.ts' }, { outPath: 'service/scene-text-worker.js' }),
    );
    this.worker = worker;
    const ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (raw: unknown) => {
        const message = fromSceneTextSchema.parse(raw);
        switch (message.type) {
          case 'ready':
            if (message.error === null) resolve();
            else reject(new Error(message.error));
            return;
          case 'lines':
            this.settle(message.id)?.resolve(message.lines);
            return;
          case 'failed':
            this.settle(message.id)?.reject(new Error(message.message));
            return;
        }
      });
      // An uncaught error in the thread is followed by its exit, which fails what was asked of it.
      worker.on('error', () => {});
      worker.once('exit', (code) => {
        const err = new Error(`the scene-text thread exited with code ${code}`);
        reject(err);
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
        for (const id of [...this.pending.keys()]) this.settle(id)?.reject(err);
      });
    });
    ready.catch(() => {
      if (this.worker === worker) void this.close();
    });
    return ready;
  }

  private settle(id: number): Pending | undefined {
    const job = this.pending.get(id);
    this.pending.delete(id);
    return job;
  }
}
