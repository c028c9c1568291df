import type { Logger } from 'pino';
import { z } from 'zod';
import { unreachable } from '../../shared/errors';
import type { JobOutcome } from '../../shared/job-outcome';
import type { Db } from '../storage/db';
import { countOf, optionalRow, parsedRows } from '../storage/rows';

/** A row of `jobs`, parsed as read (the timestamps are the queue's own and not read). */
export const jobRowSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  ref: z.string(),
  payload: z.string(),
  state: z.enum(['queued', 'running', 'done', 'failed', 'dead']),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  retry_after: z.number().int(),
  last_error: z.string().nullable(),
});
export type JobRow = z.output<typeof jobRowSchema>;

const nextWakeRowSchema = z.object({ t: z.number().int().nullable() });
/** The oldest ready job of one lane; a lane is whatever the worker's SQL names it. */
const laneHeadRowSchema = z.object({ lane: z.unknown(), id: z.number().int() });

export type JobHandler = (job: JobRow, signal: AbortSignal) => Promise<JobOutcome>;

interface Worker {
  kind: string;
  concurrency: number;
  baseDelayMs: number;
  handler: JobHandler;
  /** Called when a job ends for good (done, failed, or out of attempts). */
  onSettled?: (job: JobRow, outcome: JobOutcome) => void;
  /**
   * An SQL expression over a `jobs` row naming its lane (e.g. the account that asked for it). Ready jobs are then
   * taken lane by lane, the least recently served lane first, oldest job first within a lane, so one lane's backlog
   * never holds the others. Without it, jobs run oldest first.
   */
  laneSql?: string;
}

/**
 * Work lives in rows: every job is a row (state, attempts, retry_after, last_error). Rows left running by a crash
 * are queued again at start. Retries back off exponentially with jitter.
 */
export class ServiceJobQueue {
  private readonly workers = new Map<string, Worker>();
  private readonly running = new Map<number, AbortController>();
  private readonly kinds = new Map<number, string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private idleWaiters: (() => void)[] = [];
  /**
   * When each lane (kind + lane) was last served, as a counter. Only an order among ready rows: after a restart every
   * lane starts even again, and all state the work needs is in the rows.
   */
  private readonly lastServed = new Map<string, number>();
  private served = 0;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  register(worker: Worker): void {
    this.workers.set(worker.kind, worker);
  }

  enqueue(kind: string, ref: string, payload: unknown, maxAttempts: number): number {
    const now = Date.now();
    const id = Number(
      this.db
        .prepare(
          "INSERT INTO jobs (kind, ref, payload, state, max_attempts, created_at, updated_at) VALUES (?, ?, ?, 'queued', ?, ?, ?)",
        )
        .run(kind, ref, JSON.stringify(payload), maxAttempts, now, now).lastInsertRowid,
    );
    this.kick();
    return id;
  }

  /** Whether a job of this kind for this ref is waiting or running. */
  hasPending(kind: string, ref: string): boolean {
    return (
      this.db
        .prepare("SELECT 1 FROM jobs WHERE kind = ? AND ref = ? AND state IN ('queued', 'running')")
        .get(kind, ref) !== undefined
    );
  }

  start(): void {
    const recovered = this.db
      .prepare("UPDATE jobs SET state = 'queued', updated_at = ? WHERE state = 'running'")
      .run(Date.now()).changes;
    if (recovered) this.log.info({ recovered }, 'requeued jobs left running');
    this.stopped = false;
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const controller of this.running.values()) controller.abort();
    while (this.running.size > 0) await new Promise((r) => setTimeout(r, 20));
  }

  /** Resolves when no job of any kind is queued (ready now) or running. For tests and draining. */
  async waitForIdle(): Promise<void> {
    if (this.isIdle()) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    if (this.running.size > 0) return false;
    return countOf(this.db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE state = 'queued'").get()) === 0;
  }

  kick(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pump(), 0);
  }

  private pump(): void {
    if (this.stopped) return;
    const now = Date.now();
    let nextWake = Infinity;
    for (const worker of this.workers.values()) {
      const active = [...this.running.keys()].filter((id) => this.kindOf(id) === worker.kind).length;
      const free = worker.concurrency - active;
      if (free > 0) {
        if (worker.laneSql) {
          // One at a time: run() marks the row running, so the next pick sees the lanes as they now are.
          for (let i = 0; i < free; i++) {
            const job = this.nextByLane(worker, worker.laneSql, now);
            if (!job) break;
            this.run(worker, job);
          }
        } else {
          for (const job of this.nextByAge(worker.kind, now, free)) this.run(worker, job);
        }
      }
      const next = nextWakeRowSchema.parse(
        this.db
          .prepare("SELECT MIN(retry_after) AS t FROM jobs WHERE kind = ? AND state = 'queued' AND retry_after > ?")
          .get(worker.kind, now),
      );
      if (next.t !== null) nextWake = Math.min(nextWake, next.t);
    }
    if (nextWake !== Infinity) this.timer = setTimeout(() => this.pump(), Math.max(10, nextWake - now));
    if (this.isIdle()) this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }

  private nextByAge(kind: string, now: number, limit: number): JobRow[] {
    return parsedRows(
      jobRowSchema,
      this.db
        .prepare(
          "SELECT * FROM jobs WHERE kind = ? AND state = 'queued' AND retry_after <= ? ORDER BY retry_after, id LIMIT ?",
        )
        .all(kind, now, limit),
    );
  }

  /** The oldest ready job of the least recently served lane that has one. */
  private nextByLane(worker: Worker, laneSql: string, now: number): JobRow | undefined {
    const heads = parsedRows(
      laneHeadRowSchema,
      this.db
        .prepare(
          `SELECT lane, MIN(id) AS id FROM (SELECT id, ${laneSql} AS lane FROM jobs WHERE kind = ? AND state = 'queued' AND retry_after <= ?)
           GROUP BY lane`,
        )
        .all(worker.kind, now),
    );
    let best: { key: string; id: number; served: number } | undefined;
    for (const head of heads) {
      const key = `${worker.kind}\u0000${String(head.lane)}`;
      const served = this.lastServed.get(key) ?? 0;
      if (!best || served < best.served || (served === best.served && head.id < best.id))
        best = { key, id: head.id, served };
    }
    if (!best) return undefined;
    this.lastServed.set(best.key, ++this.served);
    return optionalRow(jobRowSchema, this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(best.id));
  }

  private kindOf(id: number): string | undefined {
    return this.kinds.get(id);
  }

  private run(worker: Worker, job: JobRow): void {
    const controller = new AbortController();
    this.running.set(job.id, controller);
    this.kinds.set(job.id, job.kind);
    this.db
      .prepare("UPDATE jobs SET state = 'running', attempts = attempts + 1, updated_at = ? WHERE id = ?")
      .run(Date.now(), job.id);
    const attempt = { ...job, attempts: job.attempts + 1 };
    void worker
      .handler(attempt, controller.signal)
      .catch((err: unknown): JobOutcome => ({ type: 'retry', error: err instanceof Error ? err.message : String(err) }))
      .then((outcome) => {
        if (controller.signal.aborted && this.stopped) {
          // Shutting down: leave the row to be recovered at the next start.
          this.db
            .prepare("UPDATE jobs SET state = 'queued', attempts = attempts - 1, updated_at = ? WHERE id = ?")
            .run(Date.now(), job.id);
          return;
        }
        this.settle(worker, attempt, outcome);
      })
      .finally(() => {
        this.running.delete(job.id);
        this.kinds.delete(job.id);
        this.kick();
      });
  }

  private settle(worker: Worker, job: JobRow, outcome: JobOutcome): void {
    const now = Date.now();
    switch (outcome.type) {
      case 'finished':
        this.db
          .prepare("UPDATE jobs SET state = 'done', last_error = NULL, updated_at = ? WHERE id = ?")
          .run(now, job.id);
        worker.onSettled?.(job, outcome);
        return;
      case 'failed':
        this.db
          .prepare("UPDATE jobs SET state = 'failed', last_error = ?, updated_at = ? WHERE id = ?")
          .run(outcome.error, now, job.id);
        worker.onSettled?.(job, outcome);
        return;
      case 'retry': {
        if (job.attempts >= job.max_attempts) {
          this.db
            .prepare("UPDATE jobs SET state = 'dead', last_error = ?, updated_at = ? WHERE id = ?")
            .run(outcome.error, now, job.id);
          worker.onSettled?.(job, { type: 'failed', error: outcome.error });
          return;
        }
        const delay = outcome.delayMs ?? backoff(worker.baseDelayMs, job.attempts);
        this.db
          .prepare("UPDATE jobs SET state = 'queued', retry_after = ?, last_error = ?, updated_at = ? WHERE id = ?")
          .run(now + delay, outcome.error, now, job.id);
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
}

/** Exponential backoff with full jitter, capped at 10 minutes. */
export function backoff(baseMs: number, attempt: number): number {
  const cap = Math.min(10 * 60_000, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + Math.random() * (cap / 2));
}
