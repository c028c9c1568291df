import { z } from 'zod';
import { hitSchema, type SearchRequest } from '../workers/search-protocol';
import { filterOf } from '../segment-filter';
import { haversineKm } from '../geo';
import type { SegmentHit } from '../segment-types';
import type { SemanticQuery } from '../query/semantic-query';
import { parsedRows } from '../../storage/rows';
import type { Sql } from '../../storage/sql';
import { VectorCache, type AccountVectors } from './vector-cache';
import { parseQuery, queryWords } from '../query/query-text';
import { segmentLabels } from './segment-labels';

/**
 * How much a perfect semantic match adds: fused = 1 - (1 - keyword) x (1 - SEMANTIC_WEIGHT x semantic), a noisy-or of
 * the two calibrated scores. A segment both finds ranks above one that either finds alone; a semantic match alone
 * scores at most 0.8, under an exact keyword match on what a segment shows (0.7 + its bm25 strength).
 */
const SEMANTIC_WEIGHT = 0.8;
const MAX_PHRASE = 40;

/**
 * Fuses the keyword ranking with the query embedding's similarity to each keyframe of the segments the filter keeps
 * (the caller's account first of all): a flat scan of segment_embeddings for the model. Semantic hits say why:
 * "looks like: <query>". Unchanged when the request carries no embedding (model not ready, not a visual search).
 */
export async function fuseSemantic(sql: Sql, request: SearchRequest, keyword: SegmentHit[]): Promise<SegmentHit[]> {
  const semantic = request.semantic;
  if (!semantic) return keyword;
  const similarity = await scan(sql, request, semantic);
  await dropUnseen(sql, similarity, keyword, request.limit);
  const byId = new Map(keyword.map((h) => [h.segmentId, h]));
  // Semantic candidates: the best `limit` by similarity among those above the floor.
  const visual = [...similarity.entries()]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, request.limit);
  const missing = visual.map(([id]) => id).filter((id) => !byId.has(id));
  const words = queryWords(parseQuery(request.text));
  for (const hit of await readHits(sql, request.filter.accountId, missing))
    byId.set(hit.segmentId, { ...hit, missing: words, tier: 1 });
  const why = `looks like: ${shorten(request.text.replace(/\s+/g, ' ').trim())}`;
  const fused = [...byId.values()].map((hit) => {
    const s = similarity.get(hit.segmentId) ?? 0;
    if (s <= 0) return hit;
    const score = Math.round((1 - (1 - hit.score) * (1 - SEMANTIC_WEIGHT * s)) * 10_000) / 10_000;
    return { ...hit, score, matched: hit.matched ? `${hit.matched} · ${why}` : why };
  });
  return fused.sort((a, b) => b.score - a.score || a.segmentId - b.segmentId).slice(0, request.limit);
}

/** The frame labels of a picture too dark to show anything (colour-labels.ts): no evidence of what is in it. */
const DARKNESS = new Set(['black', 'dark', 'night']);

const seenRow = z.object({ id: z.number().int(), labels: z.string(), ocr_text: z.string() });

/**
 * Takes out of `similarity` the segments whose keyframe the analyzers saw as too dark to show anything (darkness
 * its only labels, no text on screen): an embedding of a black frame is near many queries, so a dark clip with only
 * speech would otherwise rank for "red car". Such a segment still matches the words it says. Reads the candidates
 * only: the best `limit` by similarity and the keyword hits.
 */
async function dropUnseen(
  sql: Sql,
  similarity: Map<number, number>,
  keyword: SegmentHit[],
  limit: number,
): Promise<void> {
  const ids = new Set(
    [...similarity.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([id]) => id),
  );
  for (const h of keyword) if (similarity.has(h.segmentId)) ids.add(h.segmentId);
  if (ids.size === 0) return;
  const list = [...ids];
  const rows = await sql.all(
    `SELECT id, labels, ocr_text FROM segments WHERE id IN (${list.map(() => '?').join(',')})`,
    ...list,
  );
  for (const r of parsedRows(seenRow, rows)) {
    const labels = segmentLabels(r.labels);
    const darkness = (l: (typeof labels)[number]): boolean => l.source === 'colour:frame' && DARKNESS.has(l.label);
    // Only a frame the analyzers saw as dark: one they left unlabelled (indexed before the colour descriptors) keeps
    // its embedding's say.
    const dark = labels.some(darkness) && labels.every(darkness);
    if (dark && r.ocr_text.trim() === '') similarity.delete(r.id);
  }
}

const caches = new WeakMap<Sql, VectorCache>();

/** Calibrated similarity in (0, 1] of the embedded segments the filter keeps, those above the floor. */
async function scan(sql: Sql, request: SearchRequest, semantic: SemanticQuery): Promise<Map<number, number>> {
  let cache = caches.get(sql);
  if (!cache) caches.set(sql, (cache = new VectorCache(sql)));
  const vectors = await cache.vectors(request.filter.accountId, semantic.model, semantic.vector.length);
  return similarities(vectors, await narrowed(sql, request), semantic);
}

/** The scan itself, in a function of its own: V8 optimises a hot loop in a plain function better than after an await. */
function similarities(
  { ids, matrix, dim }: AccountVectors,
  allowed: Set<number> | null,
  semantic: SemanticQuery,
): Map<number, number> {
  const query = Float32Array.from(semantic.vector);
  const span = semantic.ceiling - semantic.floor;
  const out = new Map<number, number>();
  for (let row = 0; row < ids.length; row++) {
    const id = ids[row]!;
    if (allowed && !allowed.has(id)) continue;
    let cosine = 0;
    for (let i = 0, at = row * dim; i < dim; i++, at++) cosine += query[i]! * matrix[at]!;
    const s = Math.min(1, (cosine - semantic.floor) / span);
    if (s > 0) out.set(id, s);
  }
  return out;
}

const placeRow = z.object({ id: z.number().int(), latitude: z.number().nullable(), longitude: z.number().nullable() });

/** The account's segments the other filters keep (folder, tag, camera, date, place), or null when none is set. */
async function narrowed(sql: Sql, request: SearchRequest): Promise<Set<number> | null> {
  const { accountId: _account, ...rest } = request.filter;
  if (Object.values(rest).every((v) => v === undefined)) return null;
  const where = filterOf(request.filter);
  const near = request.filter.near;
  const rows = await sql.all(
    `SELECT s.id, v.latitude, v.longitude FROM segments s JOIN videos v ON v.id = s.video_id WHERE ${where.sql}`,
    ...where.args,
  );
  const ids = new Set<number>();
  for (const r of parsedRows(placeRow, rows)) {
    if (near && r.latitude !== null && r.longitude !== null && haversineKm(near, r) > near.radiusKm) continue;
    ids.add(r.id);
  }
  return ids;
}

/**
 * Hits for segments only the semantic side found, scored 0 before fusion: the account's indexed segments only, though
 * the ids come from its own vectors. CROSS JOIN keeps SQLite on the ids' segments first (it would rather walk the
 * account's videos: 20x slower at 50k segments); PostgreSQL plans it as any inner join. Aliases are quoted: PostgreSQL
 * folds unquoted names to lower case.
 */
async function readHits(sql: Sql, accountId: number, ids: number[]): Promise<Omit<SegmentHit, 'missing' | 'tier'>[]> {
  if (ids.length === 0) return [];
  const rows = await sql.all(
    `SELECT s.id AS "segmentId", v.video_no AS "videoNo", v.video_name AS "videoName", v.bucket, v.blob AS "videoBlob",
            s.keyframe_blob AS "keyframeBlob", s.start_time AS start, s.end_time AS "end", s.caption, s.transcript,
            s.caption_vector AS "captionVector", 0 AS score, '' AS matched
     FROM segments s CROSS JOIN videos v
     WHERE s.id IN (${ids.map(() => '?').join(',')}) AND v.id = s.video_id AND v.account_id = ? AND v.status = 'PARSE'`,
    ...ids,
    accountId,
  );
  return parsedRows(hitSchema.omit({ missing: true, tier: true }), rows);
}

function shorten(text: string): string {
  return text.length <= MAX_PHRASE ? text : `${text.slice(0, MAX_PHRASE - 1).trimEnd()}…`;
}
