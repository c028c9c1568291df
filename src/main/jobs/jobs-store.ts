import { z } from 'zod';
import type { Db } from '../store/database';

export const JOB_KINDS = ['examine', 'upload', 'poll', 'download', 'clip', 'proxy'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATES = ['queued', 'active', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

const openCountRow = z.object({
  kind: z.enum(JOB_KINDS),
  state: z.enum(['queued', 'active', 'failed']),
  n: z.number().int(),
});

export const jobRowSchema = z.object({
  id: z.number().int(),
  kind: z.enum(JOB_KINDS),
  target: z.string(),
  state: z.enum(JOB_STATES),
  paused: z
    .number()
    .int()
    .transform((v) => v !== 0),
  attempts: z.number().int(),
  retry_after: z.number().int(),
  last_error: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type JobRow = z.output<typeof jobRowSchema>;

/** Typed queries over the `jobs` table: the persistent work queue (state, attempts, retry_after, last_error). */
export class JobsStore {
  constructor(private readonly db: Db) {}

  /** Adds an open job for (kind, target) unless one is already open; then pushes its start back to `runAt` at the latest. */
  enqueue(kind: JobKind, target: string, runAt: number, now = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO jobs (kind, target, state, retry_after, created_at, updated_at) VALUES (?, ?, 'queued', ?, ?, ?)
         ON CONFLICT(kind, target) WHERE state IN ('queued', 'active')
         DO UPDATE SET retry_after = MAX(retry_after, excluded.retry_after), updated_at = excluded.updated_at
         WHERE state = 'queued'`,
      )
      .run(kind, target, runAt, now, now);
  }

  /** Marks up to `limit` runnable jobs of `kind` active (attempts + 1) and returns them. */
  claim(kind: JobKind, limit: number, now = Date.now()): JobRow[] {
    if (limit <= 0) return [];
    const rows = this.db
      .prepare(
        `UPDATE jobs SET state = 'active', attempts = attempts + 1, updated_at = ?
         WHERE id IN (SELECT id FROM jobs WHERE state = 'queued' AND paused = 0 AND kind = ? AND retry_after <= ?
                      ORDER BY retry_after, id LIMIT ?)
         RETURNING *`,
      )
      .all(now, kind, now, limit);
    return rows.map((r) => jobRowSchema.parse(r));
  }

  finish(id: number, state: 'done' | 'failed' | 'cancelled', lastError: string | null = null): void {
    this.db
      .prepare(`UPDATE jobs SET state = ?, last_error = COALESCE(?, last_error), updated_at = ? WHERE id = ?`)
      .run(state, lastError, Date.now(), id);
  }

  /** Back to queued, to run at `runAt`. `refundAttempt` when the run did not really try (aborted by pause or quit). */
  reschedule(id: number, runAt: number, lastError: string | null, refundAttempt = false): void {
    this.db
      .prepare(
        `UPDATE jobs SET state = 'queued', retry_after = ?, last_error = COALESCE(?, last_error),
           attempts = attempts - ?, updated_at = ? WHERE id = ? AND state = 'active'`,
      )
      .run(runAt, lastError, refundAttempt ? 1 : 0, Date.now(), id);
  }

  /** Rows (of these kinds; all without) left active by a process that died: queued again, to run now. Returns how many. */
  recoverActive(kinds?: readonly JobKind[]): number {
    const [where, args] = kindFilter(kinds);
    return this.db
      .prepare(`UPDATE jobs SET state = 'queued', retry_after = 0, updated_at = ? WHERE state = 'active'${where}`)
      .run(Date.now(), ...args).changes;
  }

  get(id: number): JobRow | undefined {
    const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id);
    return row ? jobRowSchema.parse(row) : undefined;
  }

  open(kind: JobKind, target: string): JobRow | undefined {
    const row = this.db
      .prepare(`SELECT * FROM jobs WHERE kind = ? AND target = ? AND state IN ('queued', 'active')`)
      .get(kind, target);
    return row ? jobRowSchema.parse(row) : undefined;
  }

  latest(kind: JobKind, target: string): JobRow | undefined {
    const row = this.db
      .prepare(`SELECT * FROM jobs WHERE kind = ? AND target = ? ORDER BY id DESC LIMIT 1`)
      .get(kind, target);
    return row ? jobRowSchema.parse(row) : undefined;
  }

  setPaused(kind: JobKind, target: string, paused: boolean): number {
    return this.db
      .prepare(
        `UPDATE jobs SET paused = ?, updated_at = ? WHERE kind = ? AND target = ? AND state IN ('queued', 'active')`,
      )
      .run(paused ? 1 : 0, Date.now(), kind, target).changes;
  }

  cancelOpen(kind: JobKind, target: string): number {
    return this.db
      .prepare(`UPDATE jobs SET state = 'cancelled', updated_at = ? WHERE kind = ? AND target = ? AND state = 'queued'`)
      .run(Date.now(), kind, target).changes;
  }

  /** Failed jobs (optionally of one target) queued again with a fresh attempt count. */
  retryFailed(filter?: { kind: JobKind; target: string }): JobRow[] {
    const rows = filter
      ? this.db
          .prepare(
            `UPDATE jobs SET state = 'queued', attempts = 0, retry_after = 0, updated_at = ?
             WHERE state = 'failed' AND kind = ? AND target = ?
               AND NOT EXISTS (SELECT 1 FROM jobs o WHERE o.kind = jobs.kind AND o.target = jobs.target AND o.state IN ('queued', 'active'))
               AND id = (SELECT MAX(id) FROM jobs l WHERE l.kind = jobs.kind AND l.target = jobs.target)
             RETURNING *`,
          )
          .all(Date.now(), filter.kind, filter.target)
      : this.db
          .prepare(
            `UPDATE jobs SET state = 'queued', attempts = 0, retry_after = 0, updated_at = ?
             WHERE state = 'failed'
               AND NOT EXISTS (SELECT 1 FROM jobs o WHERE o.kind = jobs.kind AND o.target = jobs.target AND o.state IN ('queued', 'active'))
               AND id = (SELECT MAX(id) FROM jobs l WHERE l.kind = jobs.kind AND l.target = jobs.target)
             RETURNING *`,
          )
          .all(Date.now());
    return rows.map((r) => jobRowSchema.parse(r));
  }

  /** Earliest start time among runnable (queued, unpaused) jobs of these kinds, or null when none. */
  nextRunAt(kinds: readonly JobKind[]): number | null {
    if (kinds.length === 0) return null;
    const row = this.db
      .prepare(
        `SELECT MIN(retry_after) AS t FROM jobs WHERE state = 'queued' AND paused = 0 AND kind IN (${kinds.map(() => '?').join(',')})`,
      )
      .get(...kinds) as { t: number | null };
    return row.t;
  }

  /** Jobs (of these kinds; all without) still to do (queued or active, not paused). */
  openCount(kinds?: readonly JobKind[]): number {
    const [where, args] = kindFilter(kinds);
    return (
      this.db
        .prepare(`SELECT COUNT(*) AS n FROM jobs WHERE state IN ('queued', 'active') AND paused = 0${where}`)
        .get(...args) as { n: number }
    ).n;
  }

  /** Jobs not done, per kind and state: reads only those rows (done jobs stay in the table as history). */
  openCounts(): Record<JobKind, Record<'queued' | 'active' | 'failed', number>> {
    const out = Object.fromEntries(JOB_KINDS.map((k) => [k, { queued: 0, active: 0, failed: 0 }])) as Record<
      JobKind,
      Record<'queued' | 'active' | 'failed', number>
    >;
    const rows = openCountRow
      .array()
      .parse(
        this.db
          .prepare(
            "SELECT kind, state, COUNT(*) AS n FROM jobs WHERE state IN ('queued', 'active', 'failed') GROUP BY kind, state",
          )
          .all(),
      );
    for (const r of rows) out[r.kind][r.state] = r.n;
    return out;
  }
}

function kindFilter(kinds: readonly JobKind[] | undefined): [string, JobKind[]] {
  if (!kinds) return ['', []];
  return [` AND kind IN (${kinds.map(() => '?').join(',') || "''"})`, [...kinds]];
}
