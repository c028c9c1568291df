import { z } from 'zod';
import { join } from 'node:path';
import { decodeRgb, imageSize } from '../../indexer/frames';
import { descriptorFromBlob, FACE_MODEL, faceSimilarity } from '../../indexer/analyzers/face-match';
import { detectRgb, loadDetectionEngine } from '../../indexer/analyzers/human-engine';
import { mediaInput, refusalMessage } from '../../../common/media/media-input';
import { runTool, ToolError } from '../../indexer/process';
import { IMAGE_DEMUXERS, type ImageFormat } from './image-header';
import { indexedVideoChunks } from '../indexed-video-chunks';
import { KEYFRAME_WIDTH } from '../../indexer/scene-cuts';
import { parsedRows } from '../../storage/rows';
import type { Sql } from '../../storage/sql';
import { ffmpegPath } from '../../../common/media/tools';

const MIN_FACE_SCORE = 0.5;

/**
 * Keyframes' width (as scaleFilter), and no taller than twice that: a tall strip within the pixel budget is shrunk to
 * fit as well, so detection never sees more than 640x1280 pixels.
 */
const QUERY_SCALE = `scale=w='min(${KEYFRAME_WIDTH},iw)':h='min(${2 * KEYFRAME_WIDTH},ih)':force_original_aspect_ratio=decrease:force_divisible_by=2`;

/**
 * Face descriptors of a query photo, computed exactly like the indexer's: scaled like keyframes, human's face detector
 * with the same score floor, face-api's descriptors (FACE_MODEL). Empty when the photo shows no face. The format is
 * the one its header was read as (image-header.ts), and ffmpeg decodes it as that format only.
 */
export async function queryFaceDescriptors(
  image: { path: string; format: ImageFormat },
  workDir: string,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const scaled = join(workDir, 'query.jpg');
  const imagePath = image.path;
  const input = mediaInput('image', imagePath, ['-f', IMAGE_DEMUXERS[image.format]]);
  await runTool(
    ffmpegPath(),
    ['-hide_banner', '-loglevel', 'error', '-y', ...input, '-vf', QUERY_SCALE, '-frames:v', '1', '-q:v', '3', scaled],
    { signal },
  ).catch((err: unknown) => {
    if (err instanceof ToolError && err.refusedFormat) throw new Error(refusalMessage('image', err.refusedFormat));
    // ffmpeg names the file it could not read: a path of this service, not the caller's business.
    throw err instanceof ToolError
      ? new ToolError(err.message.replaceAll(`file:${imagePath}`, 'the image').replaceAll(imagePath, 'the image'), {
          cause: err,
        })
      : err;
  });
  const { width, height } = await imageSize(scaled, signal);
  const rgb = await decodeRgb(scaled, width, height, signal);
  const found = await detectRgb(await loadDetectionEngine(), rgb, width, height);
  return found.faces.filter((f) => f.score >= MIN_FACE_SCORE).map((f) => f.descriptor);
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
  /** Best similarity between a query face and a face in the segment, in [0, 1] (face-match.ts: > 0.5 = same person). */
  score: number;
}

const faceRow = z.object({
  descriptor: z.instanceof(Buffer),
  segment_id: z.number().int(),
  start_time: z.number(),
  end_time: z.number(),
  keyframe_blob: z.string().nullable(),
  video_no: z.string(),
  video_name: z.string(),
  bucket: z.string(),
  datetime_taken: z.string().nullable(),
  camera_model: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});

/** Videos whose faces one statement reads (a few thousand faces, ~1 KB each). */
const VIDEOS_PER_READ = 32;

/**
 * Ranks the account's indexed segments by their most similar face (brute force over the account's faces, read a few
 * videos at a time; CROSS JOIN keeps SQLite's join order from the videos, PostgreSQL plans it as any inner join). `queries` are FACE_MODEL descriptors: only faces stored by that model are read, so faces indexed
 * by an older model (human's faceres, 1024 numbers) are never compared with them; such videos are found by photo again
 * once re-indexed.
 */
export async function searchFaces(
  sql: Sql,
  accountId: number,
  queries: Float32Array[],
  limit: number,
): Promise<FaceHit[]> {
  if (queries.length === 0) return [];
  const best = new Map<number, FaceHit>();
  for await (const videoIds of indexedVideoChunks(sql, accountId, VIDEOS_PER_READ)) {
    const rows = await sql.all(
      `SELECT f.descriptor, s.id AS segment_id, s.start_time, s.end_time, s.keyframe_blob, v.video_no, v.video_name,
              v.bucket, v.datetime_taken, v.camera_model, v.latitude, v.longitude
       FROM videos v CROSS JOIN faces f CROSS JOIN segments s
       WHERE v.id IN (${videoIds.map(() => '?').join(',')}) AND v.account_id = ? AND v.status = 'PARSE'
         AND f.video_id = v.id AND f.model = ? AND s.video_id = f.video_id AND s.idx = f.segment_idx`,
      ...videoIds,
      accountId,
      FACE_MODEL,
    );
    for (const r of parsedRows(faceRow, rows)) {
      const stored = { model: FACE_MODEL, descriptor: descriptorFromBlob(r.descriptor) };
      const scores = queries
        .map((q) => faceSimilarity({ model: FACE_MODEL, descriptor: q }, stored))
        .filter((x): x is number => x !== null);
      if (scores.length === 0) continue;
      const score = Math.max(...scores);
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
        score: Math.round(score * 10_000) / 10_000,
      });
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.segmentId - b.segmentId).slice(0, limit);
}
