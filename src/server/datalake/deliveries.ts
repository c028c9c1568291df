import { z } from 'zod';
import type { Sql } from '../storage/sql';
import { optionalRow, parsedRows } from '../storage/rows';
import { iso } from './iso-time';
import { newId } from './public-id';
import { skipLocked } from '../storage/dialect';
import { releaseClaim } from './row-claims';

const DELIVERY_STATUSES = ['waiting', 'success', 'fail', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A row of `dl_deliveries`, parsed as read. */
export const deliveryRowSchema = z.object({
  id: z.string(),
  operation_id: z.string(),
  account_id: z.number().int(),
  url: z.string(),
  payload: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempt: z.number().int(),
  response_code: z.number().int().nullable(),
  message: z.string(),
  next_attempt_at: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  claimed_by: z.string().nullable(),
  claim_until: z.number().int().nullable(),
});
export type DeliveryRow = z.output<typeof deliveryRowSchema>;

export interface DeliveryRecord {
  id: string;
  url: string;
  status: DeliveryStatus;
  attempt: number;
  response_code: number | null;
  message: string;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AttemptOutcome {
  status: DeliveryStatus;
  attempt: number;
  responseCode: number | null;
  message: string;
  nextAttemptAt: number | null;
}

/**
 * One row per webhook delivery (one message), updated in place on each attempt:
 * waiting -> success | fail; fail -> success | fail | dead (attempts exhausted).
 * An attempt is made by the process that claimed the row (claimAttempt), and only it records the outcome.
 */
export class Deliveries {
  /** This process's name in `claimed_by`. */
  readonly owner = newId('wkr');

  constructor(private readonly sql: Sql) {}

  async create(operationId: string, accountId: number, url: string, payload: string): Promise<DeliveryRow> {
    const now = Date.now();
    const row = await this.sql.get(
      `INSERT INTO dl_deliveries (id, operation_id, account_id, url, payload, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'waiting', ?, ?) RETURNING *`,
      newId('msg'),
      operationId,
      accountId,
      url,
      payload,
      now,
      now,
    );
    return deliveryRowSchema.parse(row);
  }

  async byId(id: string): Promise<DeliveryRow | undefined> {
    return optionalRow(deliveryRowSchema, await this.sql.get('SELECT * FROM dl_deliveries WHERE id = ?', id));
  }

  async forOperation(operationId: string): Promise<DeliveryRow[]> {
    return parsedRows(
      deliveryRowSchema,
      await this.sql.all('SELECT * FROM dl_deliveries WHERE operation_id = ? ORDER BY created_at, id', operationId),
    );
  }

  /**
   * Claims a delivery that still has attempts to make (waiting or fail) for one attempt by this process, until
   * `leaseMs` from now; undefined when it is settled or another process holds it. One conditional UPDATE (as
   * Operations.claim), so two processes never send the same attempt.
   */
  async claimAttempt(id: string, leaseMs: number): Promise<DeliveryRow | undefined> {
    const now = Date.now();
    return optionalRow(
      deliveryRowSchema,
      await this.sql.get(
        `UPDATE dl_deliveries SET claimed_by = ?, claim_until = ? WHERE id = (
           SELECT id FROM dl_deliveries
           WHERE id = ? AND status IN ('waiting', 'fail') AND (claimed_by IS NULL OR claim_until < ?)${skipLocked(this.sql)}
         ) RETURNING *`,
        this.owner,
        now + leaseMs,
        id,
        now,
      ),
    );
  }

  /**
   * Records the outcome of the attempt this process claimed, and gives the claim up. False (nothing written) when the
   * claim lapsed and another process took the row meanwhile: its attempt is the one that counts.
   */
  async recordAttempt(id: string, a: AttemptOutcome): Promise<boolean> {
    const res = await this.sql.run(
      `UPDATE dl_deliveries SET status = ?, attempt = ?, response_code = ?, message = ?, next_attempt_at = ?, updated_at = ?,
         claimed_by = NULL, claim_until = NULL
       WHERE id = ? AND claimed_by = ?`,
      a.status,
      a.attempt,
      a.responseCode,
      a.message,
      a.nextAttemptAt,
      Date.now(),
      id,
      this.owner,
    );
    return res.changes === 1;
  }

  /** Gives up this process's claim without an outcome (shutting down): the attempt is made again later. */
  async releaseClaim(id: string): Promise<void> {
    await releaseClaim(this.sql, 'dl_deliveries', id, this.owner);
  }

  record(row: DeliveryRow): DeliveryRecord {
    return {
      id: row.id,
      url: row.url,
      status: row.status,
      attempt: row.attempt,
      response_code: row.response_code,
      message: row.message,
      next_attempt_at: row.next_attempt_at === null ? null : iso(row.next_attempt_at),
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }
}
