import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { AnalyzeError, type AnalyzeOptions, type AnalyzeResult } from '../analyze-video';
import { unreachable } from '../../../shared/errors';
import { fromWorkerSchema, type AnalysisWorkerData, type ToWorker } from './protocol';
import { spawnWorker, workerEntry } from '../../../common/spawn-worker';

export interface AnalysisWorkerOptions {
  log: Logger;
  /** The worker module. Default: analysis-worker (built, or its source beside this file); a test may give one that misbehaves. */
  entry?: URL;
  /** How long an aborted job may take to stop before the whole worker is terminated. Default 5 s. */
  abortGraceMs?: number;
  /** How long close() waits for the analyzers to shut down before terminating. Default 5 s. */
  closeGraceMs?: number;
  /** Heap limits of the worker: a runaway analysis then kills the worker (its jobs retry), never the service. */
  resourceLimits?: ResourceLimits;
}

/** The worker died (crash, out of memory, terminated after a stuck abort): the job may be retried. */
export class AnalysisWorkerExited extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnalysisWorkerExited';
  }
}

interface Job {
  worker: Worker;
  resolve(result: AnalyzeResult): void;
  reject(err: unknown): void;
  onProgress?: AnalyzeOptions['onProgress'];
  signal?: AbortSignal;
  onAbort?: () => void;
  abortTimer?: NodeJS.Timeout;
}

/**
 * Runs analyzeVideo in a worker thread that owns the analyzers for its lifetime, so object detection (which blocks
 * the thread that runs it for ~0.4 s per keyframe) never stalls the HTTP thread. `analyze` has the `Analyze` type of
 * the index job. The worker starts on the first job and is started again on the next job after it dies; a death
 * rejects every job it was running with AnalysisWorkerExited, so the index job retries instead of hanging.
 */
export class AnalysisWorker {
  private worker: Worker | null = null;
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;
  private closed = false;
  private exitReason = new Map<Worker, string>();
  /** How many worker threads were started (1 unless one died). */
  starts = 0;

  constructor(private readonly options: AnalysisWorkerOptions) {}

  readonly analyze = (opts: AnalyzeOptions): Promise<AnalyzeResult> => {
    if (this.closed) return Promise.reject(new Error('the analysis worker is closed'));
    if (opts.analyzers)
      return Promise.reject(new TypeError('analyzers live in the analysis worker; none can be passed in'));
    if (opts.signal?.aborted) return Promise.reject(opts.signal.reason as Error);
    const worker = this.current();
    const id = this.nextId++;
    return new Promise<AnalyzeResult>((resolve, reject) => {
      const job: Job = { worker, resolve, reject, onProgress: opts.onProgress, signal: opts.signal };
      if (opts.signal) {
        const signal = opts.signal;
        job.onAbort = () => {
          this.post(worker, {
            type: 'abort',
            id,
            reason: signal.reason instanceof Error ? signal.reason.message : String(signal.reason),
          });
          job.abortTimer = setTimeout(() => {
            this.exitReason.set(worker, `an aborted job did not stop within ${this.abortGraceMs} ms`);
            void worker.terminate();
          }, this.abortGraceMs);
        };
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.jobs.set(id, job);
      const { videoPath, workDir, transcriptionPrompt, maxSegmentSeconds } = opts;
      this.post(worker, {
        type: 'analyze',
        id,
        request: { videoPath, workDir, transcriptionPrompt, maxSegmentSeconds },
      });
    });
  };

  /** Closes the analyzers in the worker and ends it; jobs still running are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const ended = new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.on('message', (raw: unknown) => {
        if (fromWorkerSchema.safeParse(raw).data?.type === 'closed') resolve();
      });
    });
    this.exitReason.set(worker, 'the analysis worker was closed');
    this.post(worker, { type: 'close' });
    const timer = setTimeout(() => void worker.terminate(), this.options.closeGraceMs ?? 5_000);
    await ended;
    clearTimeout(timer);
    await worker.terminate();
  }

  private get abortGraceMs(): number {
    return this.options.abortGraceMs ?? 5_000;
  }

  private current(): Worker {
    if (this.worker) return this.worker;
    const data: AnalysisWorkerData = { logLevel: this.options.log.level };
    const worker = spawnWorker(
      this.options.entry ??
        workerEntry(import.meta.url, { sibling: './analysis-worker.ts' }, { outPath: 'service/analysis-worker.js' }),
      {
        workerData: data,
        resourceLimits: this.options.resourceLimits,
      },
    );
    this.starts++;
    this.worker = worker;
    worker.on('message', (raw: unknown) => this.receive(worker, raw));
    worker.on('error', (err) => {
      this.exitReason.set(worker, `the analysis worker crashed: ${err.message}`);
      this.options.log.error({ err }, 'analysis worker crashed');
    });
    worker.once('exit', (code) => this.exited(worker, code));
    return worker;
  }

  private post(worker: Worker, message: ToWorker): void {
    worker.postMessage(message);
  }

  private receive(worker: Worker, raw: unknown): void {
    const parsed = fromWorkerSchema.safeParse(raw);
    if (!parsed.success) {
      this.exitReason.set(worker, `the analysis worker sent an invalid message: ${parsed.error.message}`);
      void worker.terminate();
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'closed':
        return;
      case 'progress':
        this.jobs.get(message.id)?.onProgress?.(message.percent, message.stage);
        return;
      case 'result':
        this.settle(message.id)?.resolve(message.result);
        return;
      case 'failed': {
        const job = this.settle(message.id);
        if (!job) return;
        if (message.aborted && job.signal?.aborted) job.reject(job.signal.reason);
        else job.reject(remoteError(message.error));
        return;
      }
      default:
        throw unreachable(message);
    }
  }

  /** Removes a job and its abort wiring; returns it so the caller can resolve or reject it. */
  private settle(id: number): Job | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    this.jobs.delete(id);
    clearTimeout(job.abortTimer);
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    return job;
  }

  private exited(worker: Worker, code: number): void {
    if (this.worker === worker) this.worker = null;
    const reason = this.exitReason.get(worker) ?? `the analysis worker exited with code ${code}`;
    this.exitReason.delete(worker);
    const orphans = [...this.jobs.entries()].filter(([, job]) => job.worker === worker);
    if (orphans.length > 0)
      this.options.log.warn({ code, jobs: orphans.length, reason }, 'analysis worker ended with jobs running');
    for (const [id] of orphans) {
      const job = this.settle(id);
      if (!job) continue;
      // An abort that had to terminate the worker still reports the caller's own reason.
      job.reject(job.signal?.aborted ? job.signal.reason : new AnalysisWorkerExited(reason));
    }
  }
}

function remoteError(error: { name: string; message: string }): Error {
  if (error.name === 'AnalyzeError') return new AnalyzeError(error.message);
  const err = new Error(error.message);
  err.name = error.name;
  return err;
}
