import { join } from 'node:path';
import { z } from 'zod';
import { decodeRgb, imageSize } from '../indexer/frames';
import { detectRgb, loadHumanEngine } from '../indexer/analyzers/human-engine';
import { runTool } from '../indexer/process';
import { scaleFilter } from '../indexer/scene-cuts';
import type { Db } from '../storage/db';

const MIN_FACE_SCORE = 0.5;
const facesSchema = z.object({ face: z.array(z.object({ score: z.number(), embedding: z.array(z.number()).optional() })) });

/**
 * Face descriptors of a query photo, computed exactly like the indexer's: scaled like keyframes, the same human
 * (faceres) model, the same face-score floor. Empty when the photo shows no face.
 */
export async function queryFaceDescriptors(imagePath: string, workDir: string, signal?: AbortSignal): Promise<Float32Array[]> {
  const scaled = join(workDir, 'query.jpg');
  await runTool('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', imagePath, '-vf', scaleFilter(), '-frames:v', '1', '-q:v', '3', scaled], { signal });
  const { width, height } = await imageSize(scaled, signal);
  const rgb = await decodeRgb(scaled, width, height, signal);
  const result = facesSchema.parse(await detectRgb(await loadHumanEngine(), rgb, width, height));
  return result.face.filter((f) => f.score >= MIN_FACE_SCORE && f.embedding?.length).map((f) => Float32Array.from(f.embedding ?? []));
}

export interface FaceHit {
  segmentId: number;
  videoNo: string;
  videoName: string;
  bucket: string;
  keyframeBlob: string | null;
  start: number;
  end: number;
  datetimeTaken: string | null;
  cameraModel: string | null;
  latitude: number | null;
  longitude: number | null;
  /** Best cosine similarity between a query face and a face in the segment, clamped to [0, 1]. */
  score: number;
}

/** Ranks the account's indexed segments by their most similar face (brute force over the faces table). */
export function searchFaces(db: Db, accountId: number, queries: Float32Array[], limit: number): FaceHit[] {
  if (queries.length === 0) return [];
  const rows = db
    .prepare(
      `SELECT f.descriptor, s.id AS segment_id, s.start_time, s.end_time, s.keyframe_blob, v.video_no, v.video_name, v.bucket,
              v.datetime_taken, v.camera_model, v.latitude, v.longitude
       FROM faces f JOIN videos v ON v.id = f.video_id JOIN segments s ON s.video_id = f.video_id AND s.idx = f.segment_idx
       WHERE v.account_id = ? AND v.status = 'PARSE'`,
    )
    .iterate(accountId) as IterableIterator<{
    descriptor: Buffer;
    segment_id: number;
    start_time: number;
    end_time: number;
    keyframe_blob: string | null;
    video_no: string;
    video_name: string;
    bucket: string;
    datetime_taken: string | null;
    camera_model: string | null;
    latitude: number | null;
    longitude: number | null;
  }>;
  const best = new Map<number, FaceHit>();
  for (const r of rows) {
    const stored = new Float32Array(r.descriptor.buffer, r.descriptor.byteOffset, r.descriptor.byteLength / 4);
    const score = Math.max(...queries.map((q) => cosineSimilarity(q, stored)));
    const prev = best.get(r.segment_id);
    if (prev && prev.score >= score) continue;
    best.set(r.segment_id, {
      segmentId: r.segment_id,
      videoNo: r.video_no,
      videoName: r.video_name,
      bucket: r.bucket,
      keyframeBlob: r.keyframe_blob,
      start: r.start_time,
      end: r.end_time,
      datetimeTaken: r.datetime_taken,
      cameraModel: r.camera_model,
      latitude: r.latitude,
      longitude: r.longitude,
      score: Math.round(Math.max(0, Math.min(1, score)) * 10_000) / 10_000,
    });
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}

function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length && i < b.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
