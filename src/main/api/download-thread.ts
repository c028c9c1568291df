import type { Worker } from 'node:worker_threads';
import { spawnWorker, workerEntry } from '../../common/spawn-worker';
import type { Verdict } from './download-verdict';
import { fromWorker, type StartMessage } from './download-protocol';
import type { ResponseHead } from './response-head';

export interface ThreadResult {
  verdict: Verdict;
  head: ResponseHead;
  bytes: number;
  text: string | null;
}

interface Hooks {
  signal?: AbortSignal;
  onHead?: (verdict: Verdict) => void;
  onBytes?: (n: number) => void;
}

interface Pending extends Hooks {
  resolve: (r: ThreadResult) => void;
  reject: (e: Error) => void;
}

/**
 * The main thread's side of the download thread: one worker, started on first use, runs every download; each call
 * gets its progress and its end back as messages. A worker that dies fails the downloads it ran (they are retried by
 * their jobs, resuming from their part files) and is started again on the next call.
 */
export class DownloadThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  fetch(job: Omit<StartMessage, 'type' | 'id'>, hooks: Hooks): Promise<ThreadResult> {
    return new Promise((resolve, reject) => {
      if (hooks.signal?.aborted)
        return reject(hooks.signal.reason instanceof Error ? hooks.signal.reason : new Error('aborted'));
      const id = this.nextId++;
      const worker = this.start();
      this.pending.set(id, { ...hooks, resolve, reject });
      worker.ref();
      hooks.signal?.addEventListener('abort', () => worker.postMessage({ type: 'abort', id }), { once: true });
      worker.postMessage({ type: 'start', id, ...job } satisfies StartMessage);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
    this.failAll(new Error('the download thread was stopped'));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnWorker(
      workerEntry(import.meta.url, { sibling: './download-worker.ts' }, { outPath: 'main/download-worker.js' }),
    );
    worker.on('message', (raw: unknown) => this.onMessage(raw));
    worker.on('error', (err) => this.onDeath(worker, err));
    worker.on('exit', (code) => this.onDeath(worker, new Error(`the download thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private onMessage(raw: unknown): void {
    const m = fromWorker.parse(raw);
    const p = this.pending.get(m.id);
    if (!p) return;
    switch (m.type) {
      case 'head':
        p.onHead?.(m.verdict);
        return;
      case 'bytes':
        p.onBytes?.(m.n);
        return;
      case 'done':
        this.finish(m.id);
        p.resolve({ verdict: m.verdict, head: m.head, bytes: m.bytes, text: m.text });
        return;
      case 'error':
        this.finish(m.id);
        p.reject(
          p.signal?.aborted && p.signal.reason instanceof Error
            ? p.signal.reason
            : Object.assign(new Error(m.message), { code: m.code }),
        );
        return;
    }
  }

  private finish(id: number): void {
    this.pending.delete(id);
    // An idle thread does not keep the process alive.
    if (this.pending.size === 0) this.worker?.unref();
  }

  private onDeath(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failAll(err);
  }

  private failAll(err: Error): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(err);
    }
  }
}
