import { z } from 'zod';
import type { Sql } from '../storage/sql';
import { countOf, flagColumn, optionalRow, parsedRows } from '../storage/rows';
import { DATALAKE_ERROR_CODES, type DatalakeErrorCode } from './errors';
import { iso } from './iso-time';
import { newId } from './public-id';
import { skipLocked } from '../storage/dialect';
import { releaseClaim } from './row-claims';

const OPERATION_KINDS = ['ingest', 'video_delete', 'collection_delete'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];
export type StageValue = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';
export type IngestStage = 'preprocess' | 'index' | 'derive';

const stageValue = z.enum(['pending', 'running', 'done', 'failed', 'cancelled']);
const stagesSchema = z.union([
  z.object({ preprocess: stageValue, index: stageValue, derive: stageValue }).strict(),
  z.object({ purge: stageValue }).strict(),
]);
const fractionsSchema = z.record(z.string(), z.number().min(0).max(1));

/** A row of `dl_operations`, parsed as read (`stages` and `fractions` stay JSON text: see stages()). */
export const operationRowSchema = z.object({
  id: z.string(),
  account_id: z.number().int(),
  kind: z.enum(OPERATION_KINDS),
  resource: z.string(),
  idempotency_key: z.string().nullable(),
  request_hash: z.string().nullable(),
  callback_url: z.string().nullable(),
  done: flagColumn,
  cancelled: flagColumn,
  stages: z.string(),
  fractions: z.string(),
  error_code: z.enum(DATALAKE_ERROR_CODES).nullable(),
  error_message: z.string().nullable(),
  charged_micro: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  claimed_by: z.string().nullable(),
  claim_until: z.number().int().nullable(),
});
export type OperationRow = z.output<typeof operationRowSchema>;

/** The latest index job of an ingest, as indexStarted() reads it. */
const indexJobRowSchema = z.object({ state: z.string(), attempts: z.number().int() });
const progressRowSchema = z.object({ progress: z.number() });

export interface OperationRecord {
  operation: string;
  kind: OperationKind;
  done: boolean;
  cancelled: boolean;
  resource: string;
  progress:
    | { preprocess: StageValue; index: StageValue; derive: StageValue; percent: number }
    | { purge: StageValue; percent: number };
  error: { code: DatalakeErrorCode; message: string } | null;
  callback_url: string | null;
  created_at: string;
  updated_at: string;
}

/** Share of the overall percent each ingest stage carries. */
const WEIGHTS: Record<IngestStage, number> = { preprocess: 10, index: 70, derive: 20 };

export interface NewOperation {
  accountId: number;
  kind: OperationKind;
  resource: string;
  idempotencyKey?: string | null;
  requestHash?: string | null;
  callbackUrl?: string | null;
}

/** How often a stage's JSON is read again when another writer changed it between the read and the write. */
const CAS_TRIES = 20;

/** Operation rows: stage values, per-stage fractions, error, claim. `done` is the only completion signal. */
export class Operations {
  /** This process's name in `claimed_by`. */
  readonly owner = newId('wkr');

  constructor(private readonly sql: Sql) {}

  async create(op: NewOperation, on: Sql = this.sql): Promise<OperationRow> {
    const now = Date.now();
    const stages =
      op.kind === 'ingest' ? { preprocess: 'pending', index: 'pending', derive: 'pending' } : { purge: 'pending' };
    const row = await on.get(
      `INSERT INTO dl_operations (id, account_id, kind, resource, idempotency_key, request_hash, callback_url, stages, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      newId('op'),
      op.accountId,
      op.kind,
      op.resource,
      op.idempotencyKey ?? null,
      op.requestHash ?? null,
      op.callbackUrl ?? null,
      JSON.stringify(stages),
      now,
      now,
    );
    return operationRowSchema.parse(row);
  }

  async byId(id: string, on: Sql = this.sql): Promise<OperationRow | undefined> {
    return optionalRow(operationRowSchema, await on.get('SELECT * FROM dl_operations WHERE id = ?', id));
  }

  async get(accountId: number, id: string): Promise<OperationRow | undefined> {
    return optionalRow(
      operationRowSchema,
      await this.sql.get('SELECT * FROM dl_operations WHERE id = ? AND account_id = ?', id, accountId),
    );
  }

  async byIdempotencyKey(accountId: number, key: string, on: Sql = this.sql): Promise<OperationRow | undefined> {
    return optionalRow(
      operationRowSchema,
      await on.get('SELECT * FROM dl_operations WHERE account_id = ? AND idempotency_key = ?', accountId, key),
    );
  }

  /** The unfinished operation of this kind acting on a resource, if any. */
  async activeFor(resource: string, kind: OperationKind, on: Sql = this.sql): Promise<OperationRow | undefined> {
    return optionalRow(
      operationRowSchema,
      await on.get(
        'SELECT * FROM dl_operations WHERE resource = ? AND kind = ? AND done = 0 ORDER BY created_at DESC, id DESC LIMIT 1',
        resource,
        kind,
      ),
    );
  }

  async activeIngests(accountId: number, on: Sql = this.sql): Promise<number> {
    return countOf(
      await on.get(
        "SELECT COUNT(*) AS n FROM dl_operations WHERE account_id = ? AND kind = 'ingest' AND done = 0",
        accountId,
      ),
    );
  }

  async unfinished(kind: OperationKind): Promise<OperationRow[]> {
    return parsedRows(
      operationRowSchema,
      await this.sql.all('SELECT * FROM dl_operations WHERE kind = ? AND done = 0 ORDER BY created_at, id', kind),
    );
  }

  stages(row: OperationRow): Record<string, StageValue> {
    return stagesSchema.parse(JSON.parse(row.stages));
  }

  /**
   * Claims an unfinished operation for this process until `leaseMs` from now: true when it was free, its claim had
   * lapsed, or this process held it already. One conditional UPDATE (a statement is a transaction of its own on both
   * engines), so two processes never both hold it; on PostgreSQL the row is picked `FOR UPDATE SKIP LOCKED`, so a
   * claimer that finds another one's claim in progress gets nothing instead of waiting for it.
   */
  async claim(id: string, leaseMs: number): Promise<boolean> {
    const now = Date.now();
    const claimed = await this.sql.get(
      `UPDATE dl_operations SET claimed_by = ?, claim_until = ? WHERE id = (
         SELECT id FROM dl_operations
         WHERE id = ? AND done = 0 AND (claimed_by IS NULL OR claimed_by = ? OR claim_until < ?)${skipLocked(this.sql)}
       ) RETURNING id`,
      this.owner,
      now + leaseMs,
      id,
      this.owner,
      now,
    );
    return claimed !== undefined;
  }

  /** Extends this process's claim; false when it no longer holds it (it lapsed and another took it, or it ended). */
  async renewClaim(id: string, leaseMs: number): Promise<boolean> {
    const res = await this.sql.run(
      'UPDATE dl_operations SET claim_until = ? WHERE id = ? AND claimed_by = ? AND done = 0',
      Date.now() + leaseMs,
      id,
      this.owner,
    );
    return res.changes === 1;
  }

  /** Gives this process's claim up (a finished operation keeps none either). */
  async releaseClaim(id: string): Promise<void> {
    await releaseClaim(this.sql, 'dl_operations', id, this.owner);
  }

  async setStage(
    id: string,
    stage: IngestStage | 'purge',
    value: StageValue,
    fraction?: number,
    on: Sql = this.sql,
  ): Promise<void> {
    await this.updateProgress(
      id,
      (stages, fractions) => {
        stages[stage] = value;
        if (fraction !== undefined) fractions[stage] = Math.min(1, Math.max(0, fraction));
        if (value === 'done') fractions[stage] = 1;
      },
      on,
    );
  }

  /** Progress inside a running stage; written often, so only the fraction moves. */
  async setFraction(id: string, stage: IngestStage | 'purge', fraction: number): Promise<void> {
    await this.updateProgress(id, (_stages, fractions) => {
      fractions[stage] = Math.min(1, Math.max(0, fraction));
    });
  }

  async addCharge(id: string, micro: number, on: Sql = this.sql): Promise<void> {
    await on.run('UPDATE dl_operations SET charged_micro = charged_micro + ? WHERE id = ?', micro, id);
  }

  /**
   * Takes what the operation charged, at most once: returns the amount (0 when nothing was left), so the caller
   * refunds exactly that. A conditional UPDATE, so two takers (cancel and the worker, two processes) never both get it.
   */
  async takeCharge(id: string, on: Sql = this.sql): Promise<number> {
    const row = await this.byId(id, on);
    if (!row || row.charged_micro <= 0) return 0;
    const res = await on.run(
      'UPDATE dl_operations SET charged_micro = 0 WHERE id = ? AND charged_micro = ?',
      id,
      row.charged_micro,
    );
    return res.changes === 1 ? row.charged_micro : 0;
  }

  /** Ends the operation; returns false when it had already ended (so the caller does not notify twice). */
  async finish(
    id: string,
    outcome: { error: { code: DatalakeErrorCode; message: string } | null; cancelled?: boolean },
    on: Sql = this.sql,
  ): Promise<boolean> {
    for (let i = 0; i < CAS_TRIES; i++) {
      const row = await this.byId(id, on);
      if (!row || row.done) return false;
      const stages = this.stages(row);
      const running = outcome.cancelled ? 'cancelled' : outcome.error ? 'failed' : 'done';
      for (const [name, value] of Object.entries(stages)) {
        if (value === 'running') stages[name] = running;
        else if (value === 'pending' && outcome.cancelled) stages[name] = 'cancelled';
      }
      const res = await on.run(
        `UPDATE dl_operations SET done = 1, cancelled = ?, stages = ?, error_code = ?, error_message = ?, updated_at = ?,
           claimed_by = NULL, claim_until = NULL
         WHERE id = ? AND done = 0 AND stages = ?`,
        outcome.cancelled ? 1 : 0,
        JSON.stringify(stages),
        outcome.error?.code ?? null,
        outcome.error?.message ?? null,
        Date.now(),
        id,
        row.stages,
      );
      if (res.changes === 1) return true;
    }
    throw new Error(`operation ${id}: its stages kept changing while it was being finished`);
  }

  /**
   * Whether the index stage of an ingest has begun: the index job was picked up by a worker at least once. Read from
   * the job row so cancel and the worker cannot disagree.
   */
  async indexStarted(row: OperationRow, on: Sql = this.sql): Promise<boolean> {
    const stages = this.stages(row);
    if ('index' in stages && stages.index !== 'pending') return true;
    const job = optionalRow(
      indexJobRowSchema,
      await on.get(
        "SELECT state, attempts FROM jobs WHERE kind = 'index' AND ref = ? ORDER BY id DESC LIMIT 1",
        row.resource,
      ),
    );
    return job !== undefined && (job.state !== 'queued' || job.attempts > 0);
  }

  async record(row: OperationRow): Promise<OperationRecord> {
    const stages = this.stages(row);
    const fractions = fractionsSchema.parse(JSON.parse(row.fractions));
    const base = {
      operation: row.id,
      kind: row.kind,
      done: row.done === 1,
      cancelled: row.cancelled === 1,
      resource: row.resource,
      error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
      callback_url: row.callback_url,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
    if ('purge' in stages) {
      const purge = stages.purge ?? 'pending';
      return { ...base, progress: { purge, percent: round(purge === 'done' ? 100 : 100 * (fractions.purge ?? 0)) } };
    }
    const ingest = {
      preprocess: stages.preprocess ?? 'pending',
      index:
        stages.index === 'pending' && !row.done && (await this.indexStarted(row))
          ? 'running'
          : (stages.index ?? 'pending'),
      derive: stages.derive ?? 'pending',
    } satisfies Record<IngestStage, StageValue>;
    if (ingest.index === 'running') fractions.index = await this.indexFraction(row.resource);
    let percent = 0;
    for (const stage of ['preprocess', 'index', 'derive'] as const) {
      percent += WEIGHTS[stage] * (ingest[stage] === 'done' ? 1 : (fractions[stage] ?? 0));
    }
    if (row.done && !row.error_code && !row.cancelled) percent = 100;
    return { ...base, progress: { ...ingest, percent: round(percent) } };
  }

  /**
   * Rewrites an unfinished operation's stages and fractions (JSON text) by `change`; the write is conditional on the
   * text read, and read again when another writer (a cancel, a worker in another process) got in between.
   */
  private async updateProgress(
    id: string,
    change: (stages: Record<string, StageValue>, fractions: Record<string, number>) => void,
    on: Sql = this.sql,
  ): Promise<void> {
    for (let i = 0; i < CAS_TRIES; i++) {
      const row = await this.byId(id, on);
      if (!row || row.done) return;
      const stages = this.stages(row);
      const fractions = fractionsSchema.parse(JSON.parse(row.fractions));
      change(stages, fractions);
      const res = await on.run(
        `UPDATE dl_operations SET stages = ?, fractions = ?, updated_at = ?
         WHERE id = ? AND done = 0 AND stages = ? AND fractions = ?`,
        JSON.stringify(stages),
        JSON.stringify(fractions),
        Date.now(),
        id,
        row.stages,
        row.fractions,
      );
      if (res.changes === 1) return;
    }
    throw new Error(`operation ${id}: its stages kept changing while being written`);
  }

  /** The indexer writes 0..95 to the library row while it runs (100 once stored). */
  private async indexFraction(videoNo: string): Promise<number> {
    const v = optionalRow(
      progressRowSchema,
      await this.sql.get('SELECT progress FROM videos WHERE video_no = ?', videoNo),
    );
    return Math.min(1, (v?.progress ?? 0) / 100);
  }
}

const round = (n: number): number => Math.round(n * 10) / 10;
