import type { Worker } from 'node:worker_threads';
import { spawnWorker, workerEntry } from '../../common/spawn-worker';

/** What a request thread's message means to its host: it is ready (or could not start), or a request's answer. */
export type RequestThreadEvent<A> =
  | { kind: 'ready'; error: string | null; version?: string }
  | { kind: 'answer'; id: number; value: A }
  | { kind: 'failed'; id: number; message: string };

export interface RequestThreadOptions<A> {
  /** For messages: "the scene-text thread exited ...". */
  name: string;
  /** The worker's source file relative to this one (run from the sources) and its built entry under out/. */
  sibling: string;
  outPath: string;
  /** Parses one message from the thread (its protocol's schema) into what it means. */
  decode: (raw: unknown) => RequestThreadEvent<A>;
  /**
   * Let the process exit while the thread is idle (a thread that serves the whole process and is never closed);
   * it holds the process only while a request is out.
   */
  unrefWhenIdle?: boolean;
}

interface Pending<A> {
  resolve(answer: A): void;
  reject(err: unknown): void;
}

/**
 * A worker thread that gets ready once (the indexer's model threads load their models), then answers requests one
 * message each, by id: work that computes on the thread that calls it (onnxruntime, tfjs-wasm, SHA-256) takes a core
 * of its own there. A thread that dies fails the requests it had; the next start() brings up a new one.
 */
export class RequestThread<A> {
  private worker: Worker | null = null;
  private ready: Promise<string | undefined> | null = null;
  private readonly pending = new Map<number, Pending<A>>();
  private nextId = 1;

  constructor(private readonly options: RequestThreadOptions<A>) {}

  /** Starts the thread and waits until it is ready (resolves with the version it reports); rejects when it cannot start. */
  start(): Promise<string | undefined> {
    this.ready ??= this.spawn();
    return this.ready;
  }

  /**
   * Sends the message made by `message(id)`, moving `transfer` (buffers the caller gives up), and waits for its
   * answer.
   */
  async request(message: (id: number) => unknown, transfer: ArrayBuffer[] = []): Promise<A> {
    await this.start();
    const worker = this.worker;
    if (!worker) throw new Error(`the ${this.options.name} thread has ended`);
    const id = this.nextId++;
    if (this.options.unrefWhenIdle) worker.ref();
    return new Promise<A>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(message(id), transfer);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }

  private spawn(): Promise<string | undefined> {
    const { name, sibling, outPath, decode } = this.options;
    // Without its query: a module that tsx loads inside a worker thread (the analysis thread, run from the sources)
    // has one (?tsx-namespace=...), and workerEntry tells a source caller by its .ts ending.
    const caller = new URL(import.meta.url);
    caller.search = '';
    const worker = spawnWorker(workerEntry(caller.href, { sibling }, { outPath }));
    this.worker = worker;
    if (this.options.unrefWhenIdle) worker.unref();
    const ready = new Promise<string | undefined>((resolve, reject) => {
      worker.on('message', (raw: unknown) => {
        const event = decode(raw);
        switch (event.kind) {
          case 'ready':
            if (event.error === null) resolve(event.version);
            else reject(new Error(event.error));
            return;
          case 'answer':
            this.settle(event.id)?.resolve(event.value);
            return;
          case 'failed':
            this.settle(event.id)?.reject(new Error(event.message));
            return;
        }
      });
      // An uncaught error in the thread is followed by its exit, which fails what was asked of it.
      worker.on('error', () => {});
      worker.once('exit', (code) => {
        const err = new Error(`the ${name} thread exited with code ${code}`);
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

  private settle(id: number): Pending<A> | undefined {
    const job = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0 && this.options.unrefWhenIdle) this.worker?.unref();
    return job;
  }
}
