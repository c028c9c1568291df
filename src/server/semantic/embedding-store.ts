import { z } from 'zod';
import { countOf, parsedRows } from '../storage/rows';
import type { Sql } from '../storage/sql';

/** A segment whose keyframe has no embedding yet from the model. */
export interface PendingKeyframe {
  segmentId: number;
  bucket: string;
  keyframeBlob: string;
}

const pendingRow = z.object({ id: z.number().int(), bucket: z.string(), keyframe_blob: z.string() });
const idRow = z.object({ id: z.number().int() });
/** Tries of one batch that met another transaction's locks or deletes (put). */
const PUT_ATTEMPTS = 5;

/** Segments still to embed: an indexed video's segments with a keyframe and no vector from `model` (all SQL here). */
const PENDING_WHERE = `s.keyframe_blob IS NOT NULL AND v.status = 'PARSE'
  AND NOT EXISTS (SELECT 1 FROM segment_embeddings e WHERE e.model = ? AND e.segment_id = s.id)`;

/**
 * The segment_embeddings table (migration 007): float32 vectors as little-endian BLOBs (bytea on PostgreSQL), one per
 * segment and model. Every write bumps the model's row of segment_embedding_versions (triggers of migration 011).
 */
export class EmbeddingStore {
  constructor(private readonly sql: Sql) {}

  async embedded(model: string): Promise<number> {
    return countOf(await this.sql.get('SELECT COUNT(*) AS n FROM segment_embeddings WHERE model = ?', model));
  }

  async pendingCount(model: string): Promise<number> {
    return countOf(
      await this.sql.get(
        `SELECT COUNT(*) AS n FROM segments s JOIN videos v ON v.id = s.video_id WHERE ${PENDING_WHERE}`,
        model,
      ),
    );
  }

  /** The highest segment id so far (0 for none). */
  async lastSegmentId(): Promise<number> {
    return idRow.parse(await this.sql.get('SELECT COALESCE(MAX(id), 0) AS id FROM segments')).id;
  }

  /**
   * The next `limit` pending keyframes after segment `afterId`, in id order, but those another process holds a live
   * claim on (embed-claims.ts): candidates to claim, not yet claimed.
   */
  async pending(model: string, afterId: number, limit: number): Promise<PendingKeyframe[]> {
    const rows = await this.sql.all(
      `SELECT s.id, v.bucket, s.keyframe_blob FROM segments s JOIN videos v ON v.id = s.video_id
       WHERE s.id > ? AND ${PENDING_WHERE}
         AND NOT EXISTS (SELECT 1 FROM segment_embed_claims c
                         WHERE c.model = ? AND c.segment_id = s.id AND c.claim_until >= ?)
       ORDER BY s.id LIMIT ?`,
      afterId,
      model,
      model,
      Date.now(),
      limit,
    );
    return parsedRows(pendingRow, rows).map((r) => ({
      segmentId: r.id,
      bucket: r.bucket,
      keyframeBlob: r.keyframe_blob,
    }));
  }

  /**
   * Stores vectors; a segment deleted meanwhile (re-indexed, removed) is skipped. One transaction: the segments still
   * there, then one statement for all their vectors, so that its version bump (a trigger) takes the version row's lock
   * only once every segment row it refers to is locked. A transaction deleting several videos holds that row between
   * them and may want a segment this statement locked: on PostgreSQL this batch then gives up waiting (lock_timeout)
   * before the deadlock detector could pick the delete as its victim. A segment deleted between the two statements
   * fails the batch too (its foreign key). Such a batch is tried again from the start (a few times; then the backlog
   * logs it and its next pass embeds what is pending).
   */
  async put(model: string, vectors: { segmentId: number; vector: Float32Array }[]): Promise<void> {
    if (vectors.length === 0) return;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.putOnce(model, vectors);
      } catch (err) {
        if (attempt >= PUT_ATTEMPTS || !isTransientConflict(err)) throw err;
      }
    }
  }

  private async putOnce(model: string, vectors: { segmentId: number; vector: Float32Array }[]): Promise<void> {
    await this.sql.transaction(async (tx) => {
      if (tx.dialect === 'postgres') await tx.run("SET LOCAL lock_timeout = '200ms'");
      const ids = vectors.map((v) => v.segmentId);
      const present = new Set(
        parsedRows(
          idRow,
          await tx.all(`SELECT id FROM segments WHERE id IN (${ids.map(() => '?').join(',')})`, ...ids),
        ).map((r) => r.id),
      );
      const kept = vectors.filter((v) => present.has(v.segmentId));
      if (kept.length === 0) return;
      await tx.run(
        `INSERT INTO segment_embeddings (segment_id, model, vector) VALUES ${kept.map(() => '(?, ?, ?)').join(', ')}
         ON CONFLICT (model, segment_id) DO UPDATE SET vector = excluded.vector`,
        ...kept.flatMap(({ segmentId, vector }) => [
          segmentId,
          model,
          new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength),
        ]),
      );
    });
  }
}

/** PostgreSQL's lock_not_available (lock_timeout), deadlock_detected and foreign_key_violation. */
function isTransientConflict(err: unknown): boolean {
  const code = err instanceof Error && 'code' in err ? err.code : undefined;
  return code === '55P03' || code === '40P01' || code === '23503';
}
