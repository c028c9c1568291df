import { z } from 'zod';
import type { Db } from '../storage/db';
import { countOf, flagColumn, optionalRow, parsedRows } from '../storage/rows';
import { DATALAKE_ERROR_CODES, type DatalakeErrorCode } from './errors';
import { iso } from './iso-time';
import { newId } from './public-id';

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

/** Operation rows: stage values, per-stage fractions, error. `done` is the only completion signal. */
export class Operations {
  constructor(private readonly db: Db) {}

  create(op: NewOperation): OperationRow {
    const id = newId('op');
    const now = Date.now();
    const stages =
      op.kind === 'ingest' ? { preprocess: 'pending', index: 'pending', derive: 'pending' } : { purge: 'pending' };
    this.db
      .prepare(
        `INSERT INTO dl_operations (id, account_id, kind, resource, idempotency_key, request_hash, callback_url, stages, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
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
    return this.byId(id)!;
  }

  byId(id: string): OperationRow | undefined {
    return optionalRow(operationRowSchema, this.db.prepare('SELECT * FROM dl_operations WHERE id = ?').get(id));
  }

  get(accountId: number, id: string): OperationRow | undefined {
    return optionalRow(
      operationRowSchema,
      this.db.prepare('SELECT * FROM dl_operations WHERE id = ? AND account_id = ?').get(id, accountId),
    );
  }

  byIdempotencyKey(accountId: number, key: string): OperationRow | undefined {
    return optionalRow(
      operationRowSchema,
      this.db.prepare('SELECT * FROM dl_operations WHERE account_id = ? AND idempotency_key = ?').get(accountId, key),
    );
  }

  /** The unfinished operation of this kind acting on a resource, if any. */
  activeFor(resource: string, kind: OperationKind): OperationRow | undefined {
    return optionalRow(
      operationRowSchema,
      this.db
        .prepare(
          'SELECT * FROM dl_operations WHERE resource = ? AND kind = ? AND done = 0 ORDER BY created_at DESC LIMIT 1',
        )
        .get(resource, kind),
    );
  }

  activeIngests(accountId: number): number {
    return countOf(
      this.db
        .prepare("SELECT COUNT(*) AS n FROM dl_operations WHERE account_id = ? AND kind = 'ingest' AND done = 0")
        .get(accountId),
    );
  }

  unfinished(kind: OperationKind): OperationRow[] {
    return parsedRows(
      operationRowSchema,
      this.db.prepare('SELECT * FROM dl_operations WHERE kind = ? AND done = 0').all(kind),
    );
  }

  stages(row: OperationRow): Record<string, StageValue> {
    return stagesSchema.parse(JSON.parse(row.stages));
  }

  setStage(id: string, stage: IngestStage | 'purge', value: StageValue, fraction?: number): void {
    const row = this.byId(id);
    if (!row || row.done) return;
    const stages = { ...this.stages(row), [stage]: value };
    const fractions = fractionsSchema.parse(JSON.parse(row.fractions));
    if (fraction !== undefined) fractions[stage] = Math.min(1, Math.max(0, fraction));
    if (value === 'done') fractions[stage] = 1;
    this.db
      .prepare('UPDATE dl_operations SET stages = ?, fractions = ?, updated_at = ? WHERE id = ? AND done = 0')
      .run(JSON.stringify(stages), JSON.stringify(fractions), Date.now(), id);
  }

  /** Progress inside a running stage; written often, so only the fraction moves. */
  setFraction(id: string, stage: IngestStage | 'purge', fraction: number): void {
    const row = this.byId(id);
    if (!row || row.done) return;
    const fractions = fractionsSchema.parse(JSON.parse(row.fractions));
    fractions[stage] = Math.min(1, Math.max(0, fraction));
    this.db
      .prepare('UPDATE dl_operations SET fractions = ?, updated_at = ? WHERE id = ? AND done = 0')
      .run(JSON.stringify(fractions), Date.now(), id);
  }

  addCharge(id: string, micro: number): void {
    this.db.prepare('UPDATE dl_operations SET charged_micro = charged_micro + ? WHERE id = ?').run(micro, id);
  }

  /** The charge was given back: nothing left to refund. */
  clearCharge(id: string): void {
    this.db.prepare('UPDATE dl_operations SET charged_micro = 0 WHERE id = ?').run(id);
  }

  /** Ends the operation; returns false when it had already ended (so the caller does not notify twice). */
  finish(
    id: string,
    outcome: { error: { code: DatalakeErrorCode; message: string } | null; cancelled?: boolean },
  ): boolean {
    const row = this.byId(id);
    if (!row || row.done) return false;
    const stages = this.stages(row);
    const running = outcome.cancelled ? 'cancelled' : outcome.error ? 'failed' : 'done';
    for (const [name, value] of Object.entries(stages)) {
      if (value === 'running') stages[name] = running;
      else if (value === 'pending' && outcome.cancelled) stages[name] = 'cancelled';
    }
    const res = this.db
      .prepare(
        'UPDATE dl_operations SET done = 1, cancelled = ?, stages = ?, error_code = ?, error_message = ?, updated_at = ? WHERE id = ? AND done = 0',
      )
      .run(
        outcome.cancelled ? 1 : 0,
        JSON.stringify(stages),
        outcome.error?.code ?? null,
        outcome.error?.message ?? null,
        Date.now(),
        id,
      );
    return res.changes === 1;
  }

  /**
   * Whether the index stage of an ingest has begun: the index job was picked up by a worker at least once. Read from
   * the job row so cancel and the worker cannot disagree (both run synchronously on the same database).
   */
  indexStarted(row: OperationRow): boolean {
    const stages = this.stages(row);
    if ('index' in stages && stages.index !== 'pending') return true;
    const job = optionalRow(
      indexJobRowSchema,
      this.db
        .prepare("SELECT state, attempts FROM jobs WHERE kind = 'index' AND ref = ? ORDER BY id DESC LIMIT 1")
        .get(row.resource),
    );
    return job !== undefined && (job.state !== 'queued' || job.attempts > 0);
  }

  record(row: OperationRow): OperationRecord {
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
        stages.index === 'pending' && !row.done && this.indexStarted(row) ? 'running' : (stages.index ?? 'pending'),
      derive: stages.derive ?? 'pending',
    } satisfies Record<IngestStage, StageValue>;
    if (ingest.index === 'running') fractions.index = this.indexFraction(row.resource);
    let percent = 0;
    for (const stage of ['preprocess', 'index', 'derive'] as const) {
      percent += WEIGHTS[stage] * (ingest[stage] === 'done' ? 1 : (fractions[stage] ?? 0));
    }
    if (row.done && !row.error_code && !row.cancelled) percent = 100;
    return { ...base, progress: { ...ingest, percent: round(percent) } };
  }

  /** The indexer writes 0..95 to the library row while it runs (100 once stored). */
  private indexFraction(videoNo: string): number {
    const v = optionalRow(
      progressRowSchema,
      this.db.prepare('SELECT progress FROM videos WHERE video_no = ?').get(videoNo),
    );
    return Math.min(1, (v?.progress ?? 0) / 100);
  }
}

const round = (n: number): number => Math.round(n * 10) / 10;
