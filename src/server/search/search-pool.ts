import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { spawnWorker } from '../../common/spawn-worker';
import { unreachable } from '../indexer/types';
import { fromSearchWorkerSchema, type SearchRequest, type SearchWorkerData, type ToSearchWorker } from './search-protocol';
import type { SegmentHit } from './search-segments';

export interface SegmentSearch {
  search(request: SearchRequest): Promise<SegmentHit[]>;
}

export interface SearchPoolOptions {
  /** The service database file; each worker opens it read-only. */
  dbFile: string;
  workers: number;
  log: Logger;
  /** The worker module. Default: search-worker.ts beside this file. */
  entry?: URL;
}

interface Job {
  request: SearchRequest;
  resolve(hits: SegmentHit[]): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker | null;
  /** The job the worker is running: one at a time, so a slow search delays only the searches queued behind it. */
  running: { id: number; job: Job } | null;
}

const DEFAULT_ENTRY = new URL('./search-worker.ts', import.meta.url);

/**
 * Runs segment searches on a few worker threads, each with its own read-only SQLite connection, so ranking never
 * blocks the HTTP thread: other requests (metadata, uploads, downloads) are answered while a search runs. Searches
 * wait in one first-in-first-out queue for the next free worker; a worker that dies fails its search and is started
 * again on the next one.
 */
export class SearchPool implements SegmentSearch {
  private readonly slots: Slot[];
  private readonly queue: { id: number; job: Job }[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: SearchPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => ({ worker: null, running: null }));
  }

  /** Starts every worker now, so the first searches do not wait for a thread to load. */
  start(): void {
    for (const slot of this.slots) this.workerOf(slot);
  }

  search(request: SearchRequest): Promise<SegmentHit[]> {
    if (this.closed) return Promise.reject(new Error('the search pool is closed'));
    return new Promise<SegmentHit[]>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job: { request, resolve, reject } });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { job } of this.queue.splice(0)) job.reject(new Error('the search pool is closed'));
    await Promise.all(
      this.slots.map(async (slot) => {
        const worker = slot.worker;
        slot.worker = null;
        if (!worker) return;
        this.post(worker, { type: 'close' });
        await worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.running || this.queue.length === 0) continue;
      const next = this.queue.shift();
      if (!next) return;
      slot.running = next;
      this.post(this.workerOf(slot), { type: 'search', id: next.id, request: next.job.request });
    }
  }

  private workerOf(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    const data: SearchWorkerData = { dbFile: this.options.dbFile };
    const worker = spawnWorker(this.options.entry ?? DEFAULT_ENTRY, { workerData: data });
    slot.worker = worker;
    worker.on('message', (raw: unknown) => this.receive(slot, worker, raw));
    worker.on('error', (err) => this.options.log.error({ err }, 'search worker crashed'));
    worker.once('exit', (code) => this.exited(slot, worker, code));
    return worker;
  }

  private post(worker: Worker, message: ToSearchWorker): void {
    worker.postMessage(message);
  }

  private receive(slot: Slot, worker: Worker, raw: unknown): void {
    const parsed = fromSearchWorkerSchema.safeParse(raw);
    if (!parsed.success) {
      this.options.log.error({ issues: parsed.error.issues.slice(0, 3) }, 'search worker sent an invalid message');
      void worker.terminate();
      return;
    }
    const message = parsed.data;
    const running = slot.running;
    if (!running || running.id !== message.id) return;
    slot.running = null;
    switch (message.type) {
      case 'result':
        running.job.resolve(message.hits);
        break;
      case 'failed': {
        const err = new Error(message.error.message);
        err.name = message.error.name;
        running.job.reject(err);
        break;
      }
      default:
        throw unreachable(message);
    }
    this.dispatch();
  }

  private exited(slot: Slot, worker: Worker, code: number): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    const running = slot.running;
    slot.running = null;
    if (running) {
      this.options.log.warn({ code }, 'search worker ended during a search');
      running.job.reject(new Error(`the search worker exited with code ${code}`));
    }
    if (!this.closed) this.dispatch();
  }
}
