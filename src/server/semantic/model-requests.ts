import { z } from 'zod';
import type { Sql } from '../storage/sql';
import type { SemanticConfig } from './semantic-config';

const stampRow = z.object({ requested_at: z.number().int() });

/**
 * The models whose download was asked for (semantic_model_requests, migration 014), in the database every process
 * shares: POST /semantic/download on one API replica is how the workers and the other replicas learn to fetch the
 * model into their own caches (the cache's own marker only tells the process that holds that data folder). Each ask
 * stamps the row anew, so a process whose download failed tries again when asked again, not at every look.
 */
export class ModelRequests {
  constructor(private readonly sql: Sql) {}

  /** Records an ask; answers its stamp. */
  async mark(config: SemanticConfig): Promise<number> {
    // A stamp never repeats: one past the last when the clock has not moved on (or runs behind another machine's).
    const larger = this.sql.dialect === 'postgres' ? 'GREATEST' : 'MAX';
    const row = await this.sql.get(
      `INSERT INTO semantic_model_requests (model, revision, dtype, requested_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (model, revision, dtype) DO UPDATE
         SET requested_at = ${larger}(excluded.requested_at, semantic_model_requests.requested_at + 1)
       RETURNING requested_at`,
      config.model,
      config.revision,
      config.dtype,
      Date.now(),
    );
    return stampRow.parse(row).requested_at;
  }

  /** The stamp of the latest ask, or null when the model was never asked for. */
  async requestedAt(config: SemanticConfig): Promise<number | null> {
    const row = await this.sql.get(
      'SELECT requested_at FROM semantic_model_requests WHERE model = ? AND revision = ? AND dtype = ?',
      config.model,
      config.revision,
      config.dtype,
    );
    return row === undefined ? null : stampRow.parse(row).requested_at;
  }
}
