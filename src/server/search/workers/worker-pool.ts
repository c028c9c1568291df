import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { spawnWorker } from '../../../common/spawn-worker';
import { unreachable } from '../../../shared/errors';
import { fromWorkerSchema, type ToWorker } from './worker-protocol';

export interface WorkerPoolOptions<Res> {
  /** What the pool does, for messages: "search", "photo query". */
  name: string;
  /** The worker module (it calls serveRequests). */
  entry: URL;
  workers: number;
  workerData: unknown;
  /** Each result is parsed with this before the caller sees it. */
  result: z.ZodType<Res>;
  log: Logger;
}

interface Job<Req, Res> {
  request: Req;
  resolve(result: Res): void;
  reject(err: unknown): void;
}

interface Slot<Req, Res> {
  worker: Worker | null;
  /** The job the worker is running: one at a time, so a slow one delays only the jobs queued behind it. */
  running: { id: number; job: Job<Req, Res> } | null;
}

/**
 * Runs requests on a few worker threads, so the work never blocks the HTTP thread: other requests (metadata, uploads,
 * downloads) are answered meanwhile. Requests wait in one first-in-first-out queue for the next free worker; a worker
 * that dies fails the request it was running and is started again on the next one.
 */
export class WorkerPool<Req, Res> {
  private readonly slots: Slot<Req, Res>[];
  private readonly queue: { id: number; job: Job<Req, Res> }[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions<Res>) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => ({ worker: null, running: null }));
  }

  /** Starts every worker now, so the first searches do not wait for a thread to load. */
  start(): void {
    for (const slot of this.slots) this.workerOf(slot);
  }

  run(request: Req): Promise<Res> {
    if (this.closed) return Promise.reject(new Error(`the ${this.options.name} pool is closed`));
    return new Promise<Res>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job: { request, resolve, reject } });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { job } of this.queue.splice(0)) job.reject(new Error(`the ${this.options.name} pool is closed`));
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
      this.post(this.workerOf(slot), { type: 'run', id: next.id, request: next.job.request });
    }
  }

  private workerOf(slot: Slot<Req, Res>): Worker {
    if (slot.worker) return slot.worker;
    const worker = spawnWorker(this.options.entry, { workerData: this.options.workerData });
    slot.worker = worker;
    worker.on('message', (raw: unknown) => this.receive(slot, worker, raw));
    worker.on('error', (err) => this.options.log.error({ err }, `${this.options.name} worker crashed`));
    worker.once('exit', (code) => this.exited(slot, worker, code));
    return worker;
  }

  private post(worker: Worker, message: ToWorker): void {
    worker.postMessage(message);
  }

  private receive(slot: Slot<Req, Res>, worker: Worker, raw: unknown): void {
    const parsed = fromWorkerSchema.safeParse(raw);
    if (!parsed.success) {
      this.options.log.error(
        { issues: parsed.error.issues.slice(0, 3) },
        `${this.options.name} worker sent an invalid message`,
      );
      void worker.terminate();
      return;
    }
    const message = parsed.data;
    const running = slot.running;
    if (!running || running.id !== message.id) return;
    slot.running = null;
    switch (message.type) {
      case 'result': {
        const result = this.options.result.safeParse(message.result);
        if (result.success) running.job.resolve(result.data);
        else
          running.job.reject(
            new Error(
              `the ${this.options.name} worker answered an invalid result: ${result.error.issues[0]?.message ?? ''}`,
            ),
          );
        break;
      }
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

  private exited(slot: Slot<Req, Res>, worker: Worker, code: number): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    const running = slot.running;
    slot.running = null;
    if (running) {
      this.options.log.warn({ code }, `${this.options.name} worker ended while running a request`);
      running.job.reject(new Error(`the ${this.options.name} worker exited with code ${code}`));
    }
    if (!this.closed) this.dispatch();
  }
}
