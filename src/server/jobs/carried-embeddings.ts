import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { BlobStore } from '../storage/blob-store';
import { parsedRows } from '../storage/rows';
import type { Sql } from '../storage/sql';

const embeddedRow = z.object({ id: z.number().int(), keyframe_blob: z.string() });
const vectorRow = z.object({ segment_id: z.number().int(), model: z.string(), vector: z.instanceof(Uint8Array) });
type VectorRow = z.infer<typeof vectorRow>;

/** Segment ids read, or vectors written (three parameters each), per statement. */
const ROWS_PER_STATEMENT = 300;

/**
 * Which of a re-index's new keyframes (by their place in `keyframePaths`) are byte for byte a keyframe of the
 * video's current index that has semantic vectors, and that old segment's id. The same frame encoded the same way
 * gives the same vector, so the re-index carries it over (carryVectors) instead of leaving the segment to be embedded
 * again: semantic search keeps finding the video, and the model does not embed the frame twice. A keyframe that
 * cannot be read is left out (its new segment is embedded as any new keyframe is).
 */
export async function keyframesToCarry(
  sql: Sql,
  blobs: BlobStore,
  bucket: string,
  videoId: number,
  keyframePaths: string[],
): Promise<Map<number, number>> {
  const embedded = parsedRows(
    embeddedRow,
    await sql.all(
      `SELECT s.id, s.keyframe_blob FROM segments s
       WHERE s.video_id = ? AND s.keyframe_blob IS NOT NULL
         AND EXISTS (SELECT 1 FROM segment_embeddings e WHERE e.segment_id = s.id)`,
      videoId,
    ),
  );
  const carried = new Map<number, number>();
  if (embedded.length === 0) return carried;
  const oldByDigest = new Map<string, number>();
  for (const row of embedded) {
    const hash = createHash('sha256');
    const read = await pipeline(blobs.read(bucket, row.keyframe_blob), hash).then(
      () => true,
      () => false,
    );
    if (read) oldByDigest.set(hash.digest('hex'), row.id);
  }
  for (const [i, path] of keyframePaths.entries()) {
    const digest = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
    const oldId = oldByDigest.get(digest);
    if (oldId !== undefined) carried.set(i, oldId);
  }
  return carried;
}

/** The vectors of the old segments, read in the re-index's transaction before the segments (and they) are deleted. */
export async function vectorsOf(tx: Sql, oldSegmentIds: Iterable<number>): Promise<VectorRow[]> {
  const ids = [...new Set(oldSegmentIds)];
  if (ids.length === 0) return [];
  const rows: VectorRow[] = [];
  for (let i = 0; i < ids.length; i += ROWS_PER_STATEMENT) {
    const some = ids.slice(i, i + ROWS_PER_STATEMENT);
    const found = await tx.all(
      `SELECT segment_id, model, vector FROM segment_embeddings WHERE segment_id IN (${some.map(() => '?').join(',')})`,
      ...some,
    );
    rows.push(...parsedRows(vectorRow, found));
  }
  return rows;
}

/**
 * Stores the old segments' vectors (every model's) under the new segments that show the same keyframe, in the same
 * transaction; `newIdOf` maps an old segment's id to the new one's. Answers how many vectors were carried.
 */
export async function carryVectors(tx: Sql, vectors: VectorRow[], newIdOf: Map<number, number>): Promise<number> {
  const rows = vectors.flatMap((v) => {
    const newId = newIdOf.get(v.segment_id);
    return newId === undefined ? [] : [[newId, v.model, v.vector] as const];
  });
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const some = rows.slice(i, i + ROWS_PER_STATEMENT);
    await tx.run(
      `INSERT INTO segment_embeddings (segment_id, model, vector) VALUES ${some.map(() => '(?, ?, ?)').join(', ')}`,
      ...some.flat(),
    );
  }
  return rows.length;
}
