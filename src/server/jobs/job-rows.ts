import { z } from 'zod';
import { unreachable } from '../../shared/errors';
import type { Sql, SqlDialect, SqlParam } from '../storage/sql';
import { skipLocked } from '../storage/dialect';
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

const idRowSchema = z.object({ id: z.number().int() });
const nextWakeRowSchema = z.object({ t: z.number().int().nullable() });
/** The oldest claimable job of one lane; a lane is whatever the worker's SQL names it. */
const laneHeadRowSchema = z.object({ lane: z.unknown(), id: z.number().int() });
export type LaneHead = z.output<typeof laneHeadRowSchema>;

/** The final states a worker may settle a job in, and the error it records. */
export type SettledState = 'done' | 'failed' | 'dead';

/** A worker that lost its job's lease (it expired and another worker claimed the job) tried to commit for it. */
export class LeaseLost extends Error {
  constructor(jobId: number) {
    super(`job ${jobId}: this worker's lease has passed and another worker has the job`);
    this.name = 'LeaseLost';
  }
}

/** A JSON field of `jobs.payload` as text (SQLite's json_extract keeps a number a number), for lane expressions. */
export function payloadField(dialect: SqlDialect, field: string): string {
  if (!/^\w+$/.test(field)) throw new RangeError(`invalid payload field ${field}`);
  switch (dialect) {
    case 'sqlite':
      return `json_extract(jobs.payload, '$.${field}')`;
    case 'postgres':
      return `(CAST(jobs.payload AS jsonb) ->> '${field}')`;
    default:
      throw unreachable(dialect);
  }
}

const INSERT_JOB = `INSERT INTO jobs (kind, ref, payload, state, max_attempts, created_at, updated_at)
  VALUES (?, ?, ?, 'queued', ?, ?, ?)`;

function insertParams(kind: string, ref: string, payload: unknown, maxAttempts: number): SqlParam[] {
  const now = Date.now();
  return [kind, ref, JSON.stringify(payload), maxAttempts, now, now];
}

/**
 * Jobs this worker may claim: queued and due, or running under a lease that has passed (its worker died or stalled)
 * and with attempts left. Another process's expired lease only: this process renews its own.
 */
function claimable(kind: string, now: number, workerId: string): { where: string; params: SqlParam[] } {
  return {
    where: `kind = ? AND ((state = 'queued' AND retry_after <= ?)
      OR (state = 'running' AND lease_until < ? AND attempts < max_attempts AND COALESCE(leased_by, '') <> ?))`,
    params: [kind, now, now, workerId],
  };
}

/**
 * The `jobs` table: every statement the queue runs, on either engine. Whatever settles or releases a job is fenced by
 * its lease (`leased_by` and state 'running'): a worker whose lease passed changes nothing.
 */
export class JobRows {
  constructor(private readonly sql: Sql) {}

  async insert(kind: string, ref: string, payload: unknown, maxAttempts: number, on: Sql = this.sql): Promise<number> {
    const row = await on.get(`${INSERT_JOB} RETURNING id`, ...insertParams(kind, ref, payload, maxAttempts));
    return idRowSchema.parse(row).id;
  }

  /**
   * Queues a job unless a unique index already holds one for its kind and ref (migration 21's jobs_reindex_once):
   * whether it was queued. Safe from any number of processes at once.
   */
  async insertOnce(kind: string, ref: string, payload: unknown, maxAttempts: number): Promise<boolean> {
    const { changes } = await this.sql.run(
      `${INSERT_JOB} ON CONFLICT DO NOTHING`,
      ...insertParams(kind, ref, payload, maxAttempts),
    );
    return changes === 1;
  }

  /** Whether a job of one of these kinds is due (queued, its retry time come) or running, in any process. */
  async anyActive(kinds: readonly string[]): Promise<boolean> {
    const row = await this.sql.get(
      `SELECT 1 AS found FROM jobs WHERE kind IN (${kinds.map(() => '?').join(', ')})
         AND (state = 'running' OR (state = 'queued' AND retry_after <= ?)) LIMIT 1`,
      ...kinds,
      Date.now(),
    );
    return row !== undefined;
  }

  async hasPending(kind: string, ref: string): Promise<boolean> {
    const row = await this.sql.get(
      "SELECT 1 AS found FROM jobs WHERE kind = ? AND ref = ? AND state IN ('queued', 'running')",
      kind,
      ref,
    );
    return row !== undefined;
  }

  /** Every running row back to queued (the only worker process, starting): no lease to wait for. */
  async requeueRunning(): Promise<number> {
    const result = await this.sql.run(
      "UPDATE jobs SET state = 'queued', lease_until = 0, updated_at = ? WHERE state = 'running'",
      Date.now(),
    );
    return result.changes;
  }

  /**
   * Claims the oldest claimable job of `kind` (or the job `onlyId` if it still is claimable) for `workerId` until
   * `leaseUntil`, counting the attempt. One statement: on PostgreSQL the subquery locks the row it picks and skips rows
   * another claimer holds; on SQLite a write statement takes the database's write lock before it reads, so the pick
   * and the update are one step for every process on the file.
   */
  async claim(kind: string, workerId: string, leaseUntil: number, onlyId?: number): Promise<JobRow | undefined> {
    const now = Date.now();
    const ready = claimable(kind, now, workerId);
    const lock = skipLocked(this.sql);
    const pick =
      onlyId === undefined
        ? `SELECT id FROM jobs WHERE ${ready.where} ORDER BY retry_after, id LIMIT 1${lock}`
        : `SELECT id FROM jobs WHERE id = ? AND ${ready.where}${lock}`;
    const row = await this.sql.get(
      `UPDATE jobs SET state = 'running', attempts = attempts + 1, leased_by = ?, lease_until = ?, updated_at = ?
       WHERE id = (${pick}) RETURNING *`,
      workerId,
      leaseUntil,
      now,
      ...(onlyId === undefined ? [] : [onlyId]),
      ...ready.params,
    );
    return optionalRow(jobRowSchema, row);
  }

  /** The oldest claimable job of each lane of `kind`. */
  async laneHeads(kind: string, laneSql: string, workerId: string): Promise<LaneHead[]> {
    const ready = claimable(kind, Date.now(), workerId);
    const rows = await this.sql.all(
      `SELECT lane, MIN(id) AS id FROM (SELECT id, ${laneSql} AS lane FROM jobs WHERE ${ready.where}) AS ready
       GROUP BY lane`,
      ...ready.params,
    );
    return parsedRows(laneHeadRowSchema, rows);
  }

  /**
   * Running jobs of `kind` whose worker lost them on their last attempt: dead, returned once (to one process) so their
   * end is reported once.
   */
  async reapExhausted(kind: string, workerId: string, error: string): Promise<JobRow[]> {
    const now = Date.now();
    const rows = await this.sql.all(
      `UPDATE jobs SET state = 'dead', last_error = ?, updated_at = ?
       WHERE kind = ? AND state = 'running' AND lease_until < ? AND attempts >= max_attempts
         AND COALESCE(leased_by, '') <> ?
       RETURNING *`,
      error,
      now,
      kind,
      now,
      workerId,
    );
    return parsedRows(jobRowSchema, rows);
  }

  /** Pushes every lease `workerId` holds to `leaseUntil`; returns the ids it still holds. */
  async renew(workerId: string, leaseUntil: number): Promise<number[]> {
    const rows = await this.sql.all(
      "UPDATE jobs SET lease_until = ? WHERE leased_by = ? AND state = 'running' RETURNING id",
      leaseUntil,
      workerId,
    );
    return parsedRows(idRowSchema, rows).map((r) => r.id);
  }

  /** Renews one lease inside `tx` (a handler's final transaction); throws LeaseLost when the worker no longer has it. */
  async hold(tx: Sql, jobId: number, workerId: string, leaseUntil: number): Promise<void> {
    const { changes } = await tx.run(
      "UPDATE jobs SET lease_until = ? WHERE id = ? AND leased_by = ? AND state = 'running'",
      leaseUntil,
      jobId,
      workerId,
    );
    if (changes === 0) throw new LeaseLost(jobId);
  }

  /** Ends the job for good; false when the worker no longer holds it. */
  async settle(jobId: number, workerId: string, state: SettledState, error: string | null): Promise<boolean> {
    const { changes } = await this.sql.run(
      `UPDATE jobs SET state = ?, last_error = ?, updated_at = ? WHERE id = ? AND leased_by = ? AND state = 'running'`,
      state,
      error,
      Date.now(),
      jobId,
      workerId,
    );
    return changes === 1;
  }

  /** Queues the job again for `retryAfter`; false when the worker no longer holds it. */
  async retryLater(jobId: number, workerId: string, retryAfter: number, error: string): Promise<boolean> {
    const { changes } = await this.sql.run(
      `UPDATE jobs SET state = 'queued', retry_after = ?, last_error = ?, lease_until = 0, updated_at = ?
       WHERE id = ? AND leased_by = ? AND state = 'running'`,
      retryAfter,
      error,
      Date.now(),
      jobId,
      workerId,
    );
    return changes === 1;
  }

  /** Gives the job back uncounted (the worker is shutting down), claimable at once by any worker. */
  async release(jobId: number, workerId: string): Promise<boolean> {
    const { changes } = await this.sql.run(
      `UPDATE jobs SET state = 'queued', attempts = attempts - 1, lease_until = 0, updated_at = ?
       WHERE id = ? AND leased_by = ? AND state = 'running'`,
      Date.now(),
      jobId,
      workerId,
    );
    return changes === 1;
  }

  /** When the next queued job of `kind` comes due, if one waits for its retry time. */
  async nextRetryAt(kind: string, now: number): Promise<number | null> {
    const row = await this.sql.get(
      "SELECT MIN(retry_after) AS t FROM jobs WHERE kind = ? AND state = 'queued' AND retry_after > ?",
      kind,
      now,
    );
    return nextWakeRowSchema.parse(row).t;
  }

  async queuedCount(): Promise<number> {
    return countOf(await this.sql.get("SELECT COUNT(*) AS n FROM jobs WHERE state = 'queued'"));
  }
}
