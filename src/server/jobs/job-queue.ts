import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { unreachable } from '../../shared/errors';
import type { JobOutcome } from '../../shared/job-outcome';
import type { Sql } from '../storage/sql';
import { JobRows, type JobRow } from './job-rows';

export { jobRowSchema, LeaseLost, payloadField, type JobRow } from './job-rows';

/** A running job's hold on its row, for the handler's own writes. */
export interface JobLease {
  /**
   * Renews the lease inside `tx`, or throws LeaseLost when this worker no longer has the job. Call it in the
   * transaction that commits the job's result: a worker whose lease passed (another worker has the job) commits nothing.
   */
  hold(tx: Sql): Promise<void>;
}

export type JobHandler = (job: JobRow, signal: AbortSignal, lease: JobLease) => Promise<JobOutcome>;

interface Worker {
  kind: string;
  concurrency: number;
  baseDelayMs: number;
  handler: JobHandler;
  /** Called once when a job ends for good (done, failed, or out of attempts), by the worker that ended it. */
  onSettled?: (job: JobRow, outcome: JobOutcome) => void | Promise<void>;
  /**
   * An SQL expression over a `jobs` row naming its lane (e.g. the account that asked for it), in the queue's SQL
   * dialect (payloadField() reads the payload on either engine). Ready jobs are then taken lane by lane, the least
   * recently served lane first, oldest job first within a lane, so one lane's backlog never holds the others.
   * Without it, jobs run oldest first.
   */
  laneSql?: string;
  /**
   * Kinds this worker's jobs wait behind (background work behind what users asked for): none is claimed while a job of
   * these kinds is due or running in any process, and one running here is given back, its attempt uncounted, as soon
   * as such a job appears.
   */
  behind?: readonly string[];
}

export interface JobQueueOptions {
  /** How long a claim holds a job (ms) without renewal; a job whose worker died is claimable again after it. */
  leaseMs: number;
  /** How often this process renews the leases of its running jobs (ms); well under leaseMs. */
  renewMs: number;
  /** How often the queue looks for work it was not told about (ms): queued by other processes, or leases passed. */
  pollMs: number;
  /**
   * This process is the database's only worker (the embedded service): jobs left running are queued again at start
   * instead of waiting for their leases to pass. Never with other worker processes on the database: it would take
   * their running jobs.
   */
  exclusive: boolean;
  /** Names this process in `leased_by`; unique per process (the default is host, pid and a random part). */
  workerId: string;
}

export const DEFAULT_LEASE = { leaseMs: 60_000, renewMs: 15_000, pollMs: 1_000 } as const;

const EXHAUSTED = 'its worker stopped before finishing (lease passed) on its last attempt';

/**
 * Work lives in rows: every job is a row (state, attempts, retry_after, last_error, lease). Any number of processes
 * may share one queue: a claim leases the job to one process, which renews the lease while the job runs; a job whose
 * lease passed (its process died) is claimed again by another, and a process that lost a lease can no longer settle
 * the job. Retries back off exponentially with jitter.
 */
export class ServiceJobQueue {
  private readonly rows: JobRows;
  private readonly options: JobQueueOptions;
  private readonly workers = new Map<string, Worker>();
  /** Jobs running here; `settling` once the handler has returned (its lease is no longer renewed on purpose). */
  private readonly running = new Map<
    number,
    { kind: string; controller: AbortController; settling: boolean; yielded: boolean }
  >();
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private stopped = true;
  private pumping = false;
  private pumpAgain = false;
  private idleWaiters: (() => void)[] = [];
  /**
   * When each lane (kind + lane) was last served, as a counter. Only an order among ready rows: after a restart every
   * lane starts even again, and all state the work needs is in the rows.
   */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  /**
   * The pump and the renewal, bound to the context the queue was made in: a kick from inside a transaction (an enqueue
   * on its `tx`) must not run them inside that transaction's async context, where the queue's own Sql is refused.
   */
  private readonly pumpLater = AsyncResource.bind(() => void this.pumpLoop());
  private readonly renewLater = AsyncResource.bind(() => void this.renewLeases());

  constructor(
    sql: Sql,
    private readonly log: Logger,
    options: Partial<JobQueueOptions> = {},
  ) {
    this.rows = new JobRows(sql);
    this.options = {
      ...DEFAULT_LEASE,
      exclusive: true,
      workerId: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      ...options,
    };
  }

  get workerId(): string {
    return this.options.workerId;
  }

  register(worker: Worker): void {
    this.workers.set(worker.kind, worker);
  }

  /** Queues a job; pass the transaction (`on`) that writes what the job is for, so neither exists alone. */
  async enqueue(kind: string, ref: string, payload: unknown, maxAttempts: number, on?: Sql): Promise<number> {
    const id = await this.rows.insert(kind, ref, payload, maxAttempts, on);
    this.kick();
    return id;
  }

  /** Queues a job unless one with this kind and ref exists under a unique index (JobRows.insertOnce); whether it did. */
  async enqueueOnce(kind: string, ref: string, payload: unknown, maxAttempts: number): Promise<boolean> {
    const queued = await this.rows.insertOnce(kind, ref, payload, maxAttempts);
    if (queued) this.kick();
    return queued;
  }

  /** Whether a job of this kind for this ref is waiting or running. */
  hasPending(kind: string, ref: string): Promise<boolean> {
    return this.rows.hasPending(kind, ref);
  }

  async start(): Promise<void> {
    if (this.options.exclusive) {
      const recovered = await this.rows.requeueRunning();
      if (recovered) this.log.info({ recovered }, 'requeued jobs left running');
    }
    this.stopped = false;
    this.renewTimer = setInterval(this.renewLater, this.options.renewMs);
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const { controller } of this.running.values()) controller.abort();
    while (this.running.size > 0 || this.pumping) await new Promise((r) => setTimeout(r, 20));
    clearInterval(this.renewTimer);
  }

  /** Resolves when no job of any kind is queued or running here. For tests and draining. */
  async waitForIdle(): Promise<void> {
    if (await this.isIdle()) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private async isIdle(): Promise<boolean> {
    return this.running.size === 0 && (await this.rows.queuedCount()) === 0;
  }

  kick(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(this.pumpLater, 0);
  }

  /** One pump at a time; a kick during it runs it again. Sleeps until the next retry is due or the next poll. */
  private async pumpLoop(): Promise<void> {
    if (this.pumping || this.stopped) return;
    this.pumping = true;
    let wake = Date.now() + this.options.pollMs;
    try {
      do {
        this.pumpAgain = false;
        wake = await this.pump();
      } while (this.pumpAgain && !this.stopped);
      if (await this.isIdle()) this.idleWaiters.splice(0).forEach((resolve) => resolve());
    } catch (err) {
      this.log.error({ err }, 'job queue could not read its jobs; trying again');
    } finally {
      this.pumping = false;
    }
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.pumpLater, Math.max(10, wake - Date.now()));
  }

  /** Claims what every worker has room for; returns when to look again. */
  private async pump(): Promise<number> {
    const now = Date.now();
    let wake = now + this.options.pollMs;
    for (const worker of this.workers.values()) {
      for (const job of await this.rows.reapExhausted(worker.kind, this.workerId, EXHAUSTED)) {
        this.log.warn({ job: job.id, kind: job.kind, ref: job.ref }, 'job dead: its worker was lost on every attempt');
        await this.reportSettled(worker, job, { type: 'failed', error: EXHAUSTED });
      }
      if (worker.behind && (await this.rows.anyActive(worker.behind))) {
        this.yieldRunning(worker.kind);
        continue;
      }
      let free = worker.concurrency - [...this.running.values()].filter((r) => r.kind === worker.kind).length;
      while (free > 0 && !this.stopped) {
        const job = await this.claimNext(worker);
        if (!job) break;
        if (this.stopped) {
          // stop() came while the claim was on its way and has aborted only the jobs running then: give it back.
          await this.rows.release(job.id, this.workerId);
          break;
        }
        this.run(worker, job);
        free -= 1;
      }
      const next = await this.rows.nextRetryAt(worker.kind, now);
      if (next !== null) wake = Math.min(wake, next);
    }
    return wake;
  }

  /** Stops this process's running jobs of `kind` to give them back (a worker `behind` others has work waiting). */
  private yieldRunning(kind: string): void {
    for (const [id, entry] of this.running) {
      if (entry.kind !== kind || entry.settling || entry.controller.signal.aborted) continue;
      this.log.info({ job: id, kind }, 'job given back: work it waits behind has come');
      entry.yielded = true;
      entry.controller.abort(new Error('given back to let work it waits behind run first'));
    }
  }

  private async claimNext(worker: Worker): Promise<JobRow | undefined> {
    const leaseUntil = Date.now() + this.options.leaseMs;
    if (!worker.laneSql) return this.rows.claim(worker.kind, this.workerId, leaseUntil);
    // Another process may claim the chosen head first: choose again from the lanes as they now are.
    for (let tries = 0; tries < 5; tries++) {
      const head = this.nextLaneHead(worker, await this.rows.laneHeads(worker.kind, worker.laneSql, this.workerId));
      if (!head) return undefined;
      const job = await this.rows.claim(worker.kind, this.workerId, leaseUntil, head.id);
      if (job) {
        this.lastServed.set(head.key, ++this.served);
        return job;
      }
    }
    return undefined;
  }

  /** The oldest claimable job of the least recently served lane that has one. */
  private nextLaneHead(
    worker: Worker,
    heads: { lane: unknown; id: number }[],
  ): { key: string; id: number } | undefined {
    let best: { key: string; id: number; served: number } | undefined;
    for (const head of heads) {
      const key = `${worker.kind}\u0000${String(head.lane)}`;
      const served = this.lastServed.get(key) ?? 0;
      if (!best || served < best.served || (served === best.served && head.id < best.id))
        best = { key, id: head.id, served };
    }
    return best;
  }

  /** `job` is claimed (running, attempt counted, leased here): run it, then settle it if the lease still holds. */
  private run(worker: Worker, job: JobRow): void {
    const controller = new AbortController();
    const entry = { kind: job.kind, controller, settling: false, yielded: false };
    this.running.set(job.id, entry);
    const lease: JobLease = {
      hold: (tx) => this.rows.hold(tx, job.id, this.workerId, Date.now() + this.options.leaseMs),
    };
    void worker
      .handler(job, controller.signal, lease)
      .catch((err: unknown): JobOutcome => ({ type: 'retry', error: err instanceof Error ? err.message : String(err) }))
      .then(async (outcome) => {
        entry.settling = true;
        if (controller.signal.aborted && (this.stopped || (entry.yielded && outcome.type !== 'finished'))) {
          // Shutting down, or yielding: give the job back, uncounted, to whichever worker runs next.
          await this.rows.release(job.id, this.workerId);
          return;
        }
        await this.settle(worker, job, outcome);
      })
      .catch((err: unknown) => this.log.error({ err, job: job.id, kind: job.kind }, 'job could not be settled'))
      .finally(() => {
        this.running.delete(job.id);
        this.kick();
      });
  }

  private async settle(worker: Worker, job: JobRow, outcome: JobOutcome): Promise<void> {
    const lost = (): void =>
      this.log.warn(
        { job: job.id, kind: job.kind, outcome: outcome.type },
        'job lease lost: another worker has the job, this outcome is dropped',
      );
    switch (outcome.type) {
      case 'finished':
        if (!(await this.rows.settle(job.id, this.workerId, 'done', null))) return lost();
        await this.reportSettled(worker, job, outcome);
        return;
      case 'failed':
        if (!(await this.rows.settle(job.id, this.workerId, 'failed', outcome.error))) return lost();
        await this.reportSettled(worker, job, outcome);
        return;
      case 'retry': {
        if (job.attempts >= job.max_attempts) {
          if (!(await this.rows.settle(job.id, this.workerId, 'dead', outcome.error))) return lost();
          await this.reportSettled(worker, job, { type: 'failed', error: outcome.error });
          return;
        }
        const delay = outcome.delayMs ?? backoff(worker.baseDelayMs, job.attempts);
        if (!(await this.rows.retryLater(job.id, this.workerId, Date.now() + delay, outcome.error))) return lost();
        this.log.warn(
          { job: job.id, kind: job.kind, ref: job.ref, attempt: job.attempts, delay, err: outcome.error },
          'job will retry',
        );
        return;
      }
      default:
        throw unreachable(outcome);
    }
  }

  private async reportSettled(worker: Worker, job: JobRow, outcome: JobOutcome): Promise<void> {
    try {
      await worker.onSettled?.(job, outcome);
    } catch (err) {
      this.log.error({ err, job: job.id, kind: job.kind }, 'job settle hook failed');
    }
  }

  /** Renews this process's leases; a job whose lease was lost meanwhile (the process stalled) is stopped. */
  private async renewLeases(): Promise<void> {
    // Only jobs claimed before the renewal was sent can be missing from its answer for having been lost.
    const claimed = [...this.running.entries()];
    if (claimed.length === 0) return;
    try {
      const held = new Set(await this.rows.renew(this.workerId, Date.now() + this.options.leaseMs));
      for (const [id, { kind, controller, settling }] of claimed) {
        if (held.has(id) || settling || controller.signal.aborted) continue;
        this.log.warn({ job: id, kind }, 'job lease lost (this process stalled past it): stopping the job here');
        controller.abort(new Error('job lease lost'));
      }
    } catch (err) {
      this.log.error({ err }, 'job leases could not be renewed');
    }
  }
}

/** Exponential backoff with full jitter, capped at 10 minutes. */
export function backoff(baseMs: number, attempt: number): number {
  const cap = Math.min(10 * 60_000, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + Math.random() * (cap / 2));
}
