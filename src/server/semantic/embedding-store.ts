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

  /** The next `limit` pending keyframes after segment `afterId`, in id order. */
  async pending(model: string, afterId: number, limit: number): Promise<PendingKeyframe[]> {
    const rows = await this.sql.all(
      `SELECT s.id, v.bucket, s.keyframe_blob FROM segments s JOIN videos v ON v.id = s.video_id
       WHERE s.id > ? AND ${PENDING_WHERE} ORDER BY s.id LIMIT ?`,
      afterId,
      model,
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
   * there, then one statement for all their vectors, so that on PostgreSQL its trigger takes the version row's lock
   * only once every segment row it refers to is locked (a video deleted meanwhile waits for it or makes it fail, and
   * never deadlocks with it). A segment deleted by another transaction between the two fails the batch (its foreign
   * key): the backlog logs it and its next pass embeds what is still pending.
   */
  async put(model: string, vectors: { segmentId: number; vector: Float32Array }[]): Promise<void> {
    if (vectors.length === 0) return;
    await this.sql.transaction(async (tx) => {
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
