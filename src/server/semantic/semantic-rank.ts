import { z } from 'zod';
import type { Db } from '../storage/db';
import { hitSchema, type SearchRequest } from '../search/search-protocol';
import { filterOf, haversineKm, type SegmentHit } from '../search/search-segments';
import type { SemanticQuery } from './semantic-query';

/**
 * How much a perfect semantic match adds: fused = 1 - (1 - keyword) x (1 - SEMANTIC_WEIGHT x semantic), a noisy-or of
 * the two calibrated scores. A segment both finds ranks above one that either finds alone; a semantic match alone
 * scores at most 0.8, under an exact keyword match on what a segment shows (0.7 + its bm25 strength).
 */
const SEMANTIC_WEIGHT = 0.8;
const MAX_PHRASE = 40;

const embeddingRow = z.object({
  id: z.number().int(),
  vector: z.instanceof(Uint8Array),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});

/**
 * Fuses the keyword ranking with the query embedding's similarity to each keyframe of the segments the filter keeps
 * (the caller's account first of all): a flat scan of segment_embeddings for the model. Semantic hits say why:
 * "looks like: <query>". Unchanged when the request carries no embedding (model not ready, not a visual search).
 */
export function fuseSemantic(db: Db, request: SearchRequest, keyword: SegmentHit[]): SegmentHit[] {
  const semantic = request.semantic;
  if (!semantic) return keyword;
  const similarity = scan(db, request, semantic);
  const byId = new Map(keyword.map((h) => [h.segmentId, h]));
  // Semantic candidates: the best `limit` by similarity among those above the floor.
  const visual = [...similarity.entries()]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, request.limit);
  const missing = visual.map(([id]) => id).filter((id) => !byId.has(id));
  for (const hit of readHits(db, missing)) byId.set(hit.segmentId, hit);
  const why = `looks like: ${shorten(request.text.replace(/\s+/g, ' ').trim())}`;
  const fused = [...byId.values()].map((hit) => {
    const s = similarity.get(hit.segmentId) ?? 0;
    if (s <= 0) return hit;
    const score = Math.round((1 - (1 - hit.score) * (1 - SEMANTIC_WEIGHT * s)) * 10_000) / 10_000;
    return { ...hit, score, matched: hit.matched ? `${hit.matched} · ${why}` : why };
  });
  return fused.sort((a, b) => b.score - a.score || a.segmentId - b.segmentId).slice(0, request.limit);
}

/** Calibrated similarity in [0, 1] of every embedded segment the filter keeps. */
function scan(db: Db, request: SearchRequest, semantic: SemanticQuery): Map<number, number> {
  const where = filterOf(request.filter);
  const rows = db
    .prepare(
      `SELECT e.segment_id AS id, e.vector, v.latitude, v.longitude FROM segment_embeddings e
       JOIN segments s ON s.id = e.segment_id JOIN videos v ON v.id = s.video_id
       WHERE e.model = ? AND ${where.sql}`,
    )
    .all(semantic.model, ...where.args);
  const query = Float32Array.from(semantic.vector);
  const span = semantic.ceiling - semantic.floor;
  const near = request.filter.near;
  const out = new Map<number, number>();
  for (const raw of rows) {
    const row = embeddingRow.parse(raw);
    if (near && row.latitude !== null && row.longitude !== null && haversineKm(near, row) > near.radiusKm) continue;
    const cosine = dot(query, row.vector);
    out.set(row.id, Math.min(1, Math.max(0, (cosine - semantic.floor) / span)));
  }
  return out;
}

/** Dot product with a stored float32 vector (both unit length: their cosine); a vector of another size scores 0. */
function dot(query: Float32Array, bytes: Uint8Array): number {
  if (bytes.byteLength !== query.length * 4) return 0;
  const stored =
    bytes.byteOffset % 4 === 0
      ? new Float32Array(bytes.buffer, bytes.byteOffset, query.length)
      : new Float32Array(Uint8Array.from(bytes).buffer);
  let sum = 0;
  for (let i = 0; i < query.length; i++) sum += query[i]! * stored[i]!;
  return sum;
}

/** Hits for segments only the semantic side found, scored 0 before fusion. */
function readHits(db: Db, ids: number[]): SegmentHit[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(
      `SELECT s.id AS segmentId, v.video_no AS videoNo, v.video_name AS videoName, v.bucket, v.blob AS videoBlob,
              s.keyframe_blob AS keyframeBlob, s.start_time AS start, s.end_time AS "end", s.caption, s.transcript,
              s.caption_vector AS captionVector, 0 AS score, '' AS matched
       FROM json_each(?) j JOIN segments s ON s.id = j.value JOIN videos v ON v.id = s.video_id`,
    )
    .all(JSON.stringify(ids));
  return z.array(hitSchema).parse(rows);
}

function shorten(text: string): string {
  return text.length <= MAX_PHRASE ? text : `${text.slice(0, MAX_PHRASE - 1).trimEnd()}…`;
}
