import { z } from 'zod';
import type { Db } from '../storage/db';
import { optionalRow, parsedRows } from '../storage/rows';
import { iso } from './iso-time';
import { newId } from './public-id';

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

/**
 * One row per webhook delivery (one message), updated in place on each attempt:
 * waiting -> success | fail; fail -> success | fail | dead (attempts exhausted).
 */
export class Deliveries {
  constructor(private readonly db: Db) {}

  create(operationId: string, accountId: number, url: string, payload: string): DeliveryRow {
    const id = newId('msg');
    const now = Date.now();
    this.db
      .prepare(
        `INSERT INTO dl_deliveries (id, operation_id, account_id, url, payload, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'waiting', ?, ?)`,
      )
      .run(id, operationId, accountId, url, payload, now, now);
    return this.byId(id)!;
  }

  byId(id: string): DeliveryRow | undefined {
    return optionalRow(deliveryRowSchema, this.db.prepare('SELECT * FROM dl_deliveries WHERE id = ?').get(id));
  }

  forOperation(operationId: string): DeliveryRow[] {
    return parsedRows(
      deliveryRowSchema,
      this.db.prepare('SELECT * FROM dl_deliveries WHERE operation_id = ? ORDER BY created_at, id').all(operationId),
    );
  }

  recordAttempt(
    id: string,
    a: {
      status: DeliveryStatus;
      attempt: number;
      responseCode: number | null;
      message: string;
      nextAttemptAt: number | null;
    },
  ): void {
    this.db
      .prepare(
        'UPDATE dl_deliveries SET status = ?, attempt = ?, response_code = ?, message = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?',
      )
      .run(a.status, a.attempt, a.responseCode, a.message, a.nextAttemptAt, Date.now(), id);
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
