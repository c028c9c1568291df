import type { Sql } from '../storage/sql';
import type { SemanticConfig } from './semantic-config';

/**
 * The models whose download was asked for (semantic_model_requests, migration 014), in the database every process
 * shares: POST /semantic/download on one API replica is how the workers and the other replicas learn to fetch the
 * model into their own caches (the cache's own marker only tells the process that holds that data folder).
 */
export class ModelRequests {
  constructor(private readonly sql: Sql) {}

  async mark(config: SemanticConfig): Promise<void> {
    await this.sql.run(
      `INSERT INTO semantic_model_requests (model, revision, dtype, requested_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (model, revision, dtype) DO NOTHING`,
      config.model,
      config.revision,
      config.dtype,
      Date.now(),
    );
  }

  async requested(config: SemanticConfig): Promise<boolean> {
    const row = await this.sql.get(
      'SELECT 1 AS n FROM semantic_model_requests WHERE model = ? AND revision = ? AND dtype = ?',
      config.model,
      config.revision,
      config.dtype,
    );
    return row !== undefined;
  }
}
