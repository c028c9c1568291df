import { z } from 'zod';
import { greatest } from '../storage/dialect';
import type { Sql } from '../storage/sql';
import type { SemanticConfig } from './semantic-config';

const stampRow = z.object({ requested_at: z.number().int() });
const fetchRow = z.object({
  fetching_by: z.string().nullable(),
  fetching_until: z.number().int().nullable(),
  fetched_bytes: z.number().int().nullable(),
  total_bytes: z.number().int().nullable(),
});

/** The process fetching a model from its host (team-model-fetch.ts), until when, and how far it got. */
export interface FetchLease {
  by: string;
  until: number;
  fetchedBytes: number;
  totalBytes: number | null;
}

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
    const larger = greatest(this.sql);
    const row = await this.sql.get(
      `INSERT INTO semantic_model_requests (model, revision, dtype, requested_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (model, revision, dtype) DO UPDATE
         SET requested_at = ${larger}(excluded.requested_at, semantic_model_requests.requested_at + 1)
       RETURNING requested_at`,
      ...this.key(config),
      Date.now(),
    );
    return stampRow.parse(row).requested_at;
  }

  /** The stamp of the latest ask, or null when the model was never asked for. */
  async requestedAt(config: SemanticConfig): Promise<number | null> {
    const row = await this.sql.get(
      'SELECT requested_at FROM semantic_model_requests WHERE model = ? AND revision = ? AND dtype = ?',
      ...this.key(config),
    );
    return row === undefined ? null : stampRow.parse(row).requested_at;
  }

  /**
   * Takes the fetch lease until `until` (ms) when nobody holds it, its holder's lapsed, or `owner` holds it already
   * (asking for the model if nobody had). Answers whether `owner` holds it now: one statement, so of several
   * processes asking at once exactly one gets it.
   */
  async claimFetch(config: SemanticConfig, owner: string, until: number): Promise<boolean> {
    const row = await this.sql.get(
      `INSERT INTO semantic_model_requests
         (model, revision, dtype, requested_at, fetching_by, fetching_until, fetched_bytes, total_bytes)
       VALUES (?, ?, ?, ?, ?, ?, 0, NULL)
       ON CONFLICT (model, revision, dtype) DO UPDATE
         SET fetching_by = excluded.fetching_by, fetching_until = excluded.fetching_until, fetched_bytes = 0,
             total_bytes = NULL
         WHERE semantic_model_requests.fetching_by IS NULL OR semantic_model_requests.fetching_until < ?
           OR semantic_model_requests.fetching_by = excluded.fetching_by
       RETURNING fetching_by`,
      ...this.key(config),
      Date.now(),
      owner,
      until,
      Date.now(),
    );
    return row !== undefined;
  }

  /** Extends `owner`'s lease and records its bytes; false when it lost the lease (it lapsed and another took it). */
  async renewFetch(
    config: SemanticConfig,
    owner: string,
    until: number,
    bytes: { fetched: number; total: number | null },
  ): Promise<boolean> {
    const res = await this.sql.run(
      `UPDATE semantic_model_requests SET fetching_until = ?, fetched_bytes = ?, total_bytes = ?
       WHERE model = ? AND revision = ? AND dtype = ? AND fetching_by = ?`,
      until,
      bytes.fetched,
      bytes.total,
      ...this.key(config),
      owner,
    );
    return res.changes === 1;
  }

  /** Gives the lease back (the model is in the team store, or the fetch failed and another process may try). */
  async releaseFetch(config: SemanticConfig, owner: string): Promise<void> {
    await this.sql.run(
      `UPDATE semantic_model_requests SET fetching_by = NULL, fetching_until = NULL
       WHERE model = ? AND revision = ? AND dtype = ? AND fetching_by = ?`,
      ...this.key(config),
      owner,
    );
  }

  /** The live fetch lease, or null when nobody holds one (or its holder's lapsed). */
  async fetchLease(config: SemanticConfig): Promise<FetchLease | null> {
    const row = await this.sql.get(
      `SELECT fetching_by, fetching_until, fetched_bytes, total_bytes FROM semantic_model_requests
       WHERE model = ? AND revision = ? AND dtype = ?`,
      ...this.key(config),
    );
    if (row === undefined) return null;
    const r = fetchRow.parse(row);
    if (r.fetching_by === null || r.fetching_until === null || r.fetching_until < Date.now()) return null;
    return {
      by: r.fetching_by,
      until: r.fetching_until,
      fetchedBytes: r.fetched_bytes ?? 0,
      totalBytes: r.total_bytes,
    };
  }

  private key(config: SemanticConfig): [string, string, string] {
    return [config.model, config.revision, config.dtype];
  }
}
