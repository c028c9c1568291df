import { describeError, unreachable } from '../../shared/errors';
import type { JobOutcome } from '../../shared/job-outcome';
import type { Logger } from '../log';
import type { JobKind, JobRow, JobsStore } from './jobs-store';
import type { PauseReason } from '../../shared/contract/sync';

/**
 * What a handler tells the client queue: the outcomes both halves share, plus two only the client knows. `wait` is
 * "not yet" (file still changing, video still indexing): no attempt spent. `rate-limited` holds every job of the kind.
 */
export type ClientJobOutcome =
  JobOutcome | { type: 'rate-limited'; retryAfterMs: number; error: string } | { type: 'wait'; delayMs: number };

export interface JobHandler {
  kind: JobKind;
  concurrency: number;
  /** Attempts (runs that returned retry or threw) before the job is failed. */
  maxAttempts: number;
  run(job: JobRow, signal: AbortSignal): Promise<ClientJobOutcome>;
}

export type { PauseReason };

export interface QueuePause {
  reason: PauseReason;
  at: number;
}

/** Where a queue keeps its pause state (the client settings: queues over the same table pause independently). */
export interface PauseState {
  get(): QueuePause | null;
  /** Persists it; a running queue notices on its next tick. */
  set(reason: PauseReason | null): void;
}

export interface QueueOptions {
  jobs: JobsStore;
  pauseState: PauseState;
  handlers: JobHandler[];
  logger: Logger;
  backoff?: { baseMs: number; maxMs: number };
  /** How often the queue re-reads its rows (pause or retry from another process, clock-driven retries). */
  tickMs?: number;
  random?: () => number;
  onPauseChange?: (paused: { reason: PauseReason } | null) => void;
  onSettled?: (job: JobRow, outcome: ClientJobOutcome) => void;
}

type AbortReason = 'stop' | 'pause' | 'cancel';

/** Exponential backoff with "equal jitter": half the delay fixed, half random. */
export function backoffDelay(attempts: number, baseMs: number, maxMs: number, random: () => number): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(full / 2 + random() * (full / 2));
}

/**
 * The client's persistent job queue over the `jobs` table (sync, downloads, clips). Rows left active by a dead process are recovered on start; each kind has
 * its own concurrency; handlers get an AbortSignal (pause, cancel, quit) and return an ClientJobOutcome.
 */
export class ClientJobQueue {
  private readonly handlers = new Map<JobKind, JobHandler>();
  private readonly active = new Map<number, { job: JobRow; controller: AbortController; done: Promise<void> }>();
  private readonly holdUntil = new Map<JobKind, number>();
  private readonly log: Logger;
  private timer: NodeJS.Timeout | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private running = false;
  private idleWaiters: (() => void)[] = [];
  private lastPause: string | undefined;

  constructor(private readonly o: QueueOptions) {
    for (const h of o.handlers) this.handlers.set(h.kind, h);
    this.log = o.logger.child({ module: 'queue' });
  }

  async start(): Promise<void> {
    const recovered = this.o.jobs.recoverActive(this.kinds());
    if (recovered > 0) this.log.info({ recovered }, 'recovered jobs left active');
    this.running = true;
    this.lastPause = this.pauseStamp();
    this.ticker = setInterval(() => this.tick(), this.o.tickMs ?? 1000);
    this.pump();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.ticker);
    clearTimeout(this.timer);
    for (const a of this.active.values()) a.controller.abort('stop' satisfies AbortReason);
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  paused(): QueuePause | null {
    return this.o.pauseState.get();
  }

  pause(reason: PauseReason): void {
    this.o.pauseState.set(reason);
    this.lastPause = this.pauseStamp();
    this.log.info({ reason }, 'queue paused');
    for (const a of this.active.values()) a.controller.abort('pause' satisfies AbortReason);
    this.o.onPauseChange?.({ reason });
  }

  resume(): void {
    this.o.pauseState.set(null);
    this.lastPause = this.pauseStamp();
    this.holdUntil.clear();
    this.log.info('queue resumed');
    this.o.onPauseChange?.(null);
    this.pump();
  }

  /** Stops a running job of this target (pause of one file, cancel): it goes back to its row's state. */
  abortTarget(kind: JobKind, target: string, reason: 'pause' | 'cancel'): void {
    for (const a of this.active.values())
      if (a.job.kind === kind && a.job.target === target) a.controller.abort(reason);
  }

  /** Resolves when nothing is queued (unpaused) or running. */
  waitForIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** New rows may be runnable: look now. */
  pump(): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.paused()) {
      const now = Date.now();
      for (const handler of this.handlers.values()) {
        if ((this.holdUntil.get(handler.kind) ?? 0) > now) continue;
        for (const job of this.o.jobs.claim(handler.kind, handler.concurrency - this.busy(handler.kind), now))
          this.launch(handler, job);
      }
      this.scheduleNext();
    }
    this.checkIdle();
  }

  /** The pause state as a comparable stamp, to notice a pause or resume written by another process. */
  private pauseStamp(): string {
    return JSON.stringify(this.paused());
  }

  private kinds(): JobKind[] {
    return [...this.handlers.keys()];
  }

  private tick(): void {
    const current = this.pauseStamp();
    if (current !== this.lastPause) {
      this.lastPause = current;
      const p = this.paused();
      if (p) for (const a of this.active.values()) a.controller.abort('pause' satisfies AbortReason);
      this.o.onPauseChange?.(p ? { reason: p.reason } : null);
    }
    this.pump();
  }

  private scheduleNext(): void {
    const now = Date.now();
    let at: number | null = null;
    for (const [kind, handler] of this.handlers) {
      if (this.busy(kind) >= handler.concurrency) continue; // woken when one of its jobs settles
      const next = this.o.jobs.nextRunAt([kind]);
      if (next === null) continue;
      const start = Math.max(next, this.holdUntil.get(kind) ?? 0);
      at = at === null ? start : Math.min(at, start);
    }
    if (at === null) return;
    const delay = Math.max(10, Math.min(at - now, 60_000));
    this.timer = setTimeout(() => this.pump(), delay);
  }

  private launch(handler: JobHandler, job: JobRow): void {
    const controller = new AbortController();
    const log = this.log.child({ jobId: job.id, kind: job.kind, target: job.target, attempt: job.attempts });
    const done = (async () => {
      let outcome: ClientJobOutcome;
      try {
        outcome = await handler.run(job, controller.signal);
      } catch (err) {
        outcome = controller.signal.aborted
          ? { type: 'wait', delayMs: 0 }
          : { type: 'retry', error: describeError(err) };
      }
      if (controller.signal.aborted) {
        const reason = controller.signal.reason as AbortReason;
        if (reason === 'cancel') this.o.jobs.finish(job.id, 'cancelled', 'cancelled');
        else this.o.jobs.reschedule(job.id, Date.now(), null, true);
        log.info({ reason }, 'job interrupted');
      } else {
        this.settle(handler, job, outcome, log);
      }
    })()
      .catch((err: unknown) => log.error({ err: describeError(err) }, 'job bookkeeping failed'))
      .finally(() => {
        this.active.delete(job.id);
        setImmediate(() => this.pump());
      });
    this.active.set(job.id, { job, controller, done });
  }

  private settle(handler: JobHandler, job: JobRow, outcome: ClientJobOutcome, log: Logger): void {
    const now = Date.now();
    switch (outcome.type) {
      case 'finished':
        this.o.jobs.finish(job.id, 'done');
        log.debug('job finished');
        break;
      case 'wait':
        this.o.jobs.reschedule(job.id, now + outcome.delayMs, null, true);
        break;
      case 'retry': {
        if (job.attempts >= handler.maxAttempts) {
          this.o.jobs.finish(job.id, 'failed', outcome.error);
          log.warn({ err: outcome.error }, 'job failed after its last attempt');
        } else {
          const { baseMs, maxMs } = this.o.backoff ?? { baseMs: 1000, maxMs: 5 * 60_000 };
          const delay = outcome.delayMs ?? backoffDelay(job.attempts, baseMs, maxMs, this.o.random ?? Math.random);
          this.o.jobs.reschedule(job.id, now + delay, outcome.error);
          log.info({ err: outcome.error, delayMs: delay }, 'job will retry');
        }
        break;
      }
      case 'rate-limited':
        this.holdUntil.set(handler.kind, now + outcome.retryAfterMs);
        this.o.jobs.reschedule(job.id, now + outcome.retryAfterMs, outcome.error, true);
        log.info({ retryAfterMs: outcome.retryAfterMs }, 'rate limited');
        break;
      case 'failed':
        this.o.jobs.finish(job.id, 'failed', outcome.error);
        log.warn({ err: outcome.error }, 'job failed');
        break;
      default:
        throw unreachable(outcome);
    }
    this.o.onSettled?.(job, outcome);
  }

  private busy(kind: JobKind): number {
    let n = 0;
    for (const a of this.active.values()) if (a.job.kind === kind) n++;
    return n;
  }

  private isIdle(): boolean {
    return this.active.size === 0 && this.o.jobs.openCount(this.kinds()) === 0;
  }

  private checkIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
