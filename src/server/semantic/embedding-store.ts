import { z } from 'zod';
import type { Db } from '../storage/db';

/** A segment whose keyframe has no embedding yet from the model. */
export interface PendingKeyframe {
  segmentId: number;
  bucket: string;
  keyframeBlob: string;
}

const pendingRow = z.object({ id: z.number().int(), bucket: z.string(), keyframe_blob: z.string() });
const count = z.object({ n: z.number().int() });

/** Segments still to embed: an indexed video's segments with a keyframe and no vector from `model` (all SQL here). */
const PENDING_WHERE = `s.keyframe_blob IS NOT NULL AND v.status = 'PARSE'
  AND NOT EXISTS (SELECT 1 FROM segment_embeddings e WHERE e.model = ? AND e.segment_id = s.id)`;

/** The segment_embeddings table (migration 007): float32 vectors as little-endian BLOBs, one per segment and model. */
export class EmbeddingStore {
  constructor(private readonly db: Db) {}

  embedded(model: string): number {
    return count.parse(this.db.prepare('SELECT COUNT(*) AS n FROM segment_embeddings WHERE model = ?').get(model)).n;
  }

  pendingCount(model: string): number {
    return count.parse(
      this.db
        .prepare(`SELECT COUNT(*) AS n FROM segments s JOIN videos v ON v.id = s.video_id WHERE ${PENDING_WHERE}`)
        .get(model),
    ).n;
  }

  /** The next `limit` pending keyframes after segment `afterId`, in id order. */
  pending(model: string, afterId: number, limit: number): PendingKeyframe[] {
    return z
      .array(pendingRow)
      .parse(
        this.db
          .prepare(
            `SELECT s.id, v.bucket, s.keyframe_blob FROM segments s JOIN videos v ON v.id = s.video_id
             WHERE s.id > ? AND ${PENDING_WHERE} ORDER BY s.id LIMIT ?`,
          )
          .all(afterId, model, limit),
      )
      .map((r) => ({ segmentId: r.id, bucket: r.bucket, keyframeBlob: r.keyframe_blob }));
  }

  /** Stores vectors; a segment deleted meanwhile (re-indexed, removed) is skipped. */
  put(model: string, vectors: { segmentId: number; vector: Float32Array }[]): void {
    const insert = this.db.prepare(
      `INSERT OR REPLACE INTO segment_embeddings (segment_id, model, vector)
       SELECT id, ?, ? FROM segments WHERE id = ?`,
    );
    this.db.transaction(() => {
      for (const { segmentId, vector } of vectors)
        insert.run(model, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), segmentId);
    })();
  }
}
