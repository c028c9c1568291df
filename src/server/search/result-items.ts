import { createHash } from 'node:crypto';
import type { CaptionItem, ClipItem, ImagePage } from '../../shared/api-types';
import { captionContent } from '../indexer/caption';
import { cosine, lexicalVector } from './query/query-text';
import type { SegmentHit } from './segment-types';

/** user_id of caption items: the account's hashed namespace, never its id. */
export function userNamespace(accountId: number): string {
  return createHash('sha256').update(`reelsync-account:${accountId}`).digest('hex').slice(0, 32);
}

export function clipItem(h: SegmentHit, withKeyframe: boolean): ClipItem {
  const item: ClipItem = {
    videoNo: h.videoNo,
    videoName: h.videoName,
    startTime: String(h.start),
    endTime: String(h.end),
    score: h.score,
  };
  if (h.matched) item.matched = h.matched;
  if (h.missing.length) item.missing = h.missing;
  if (h.transcript) item.audio_ts = h.transcript;
  if (h.videoBlob) {
    item.video_bucket = h.bucket;
    item.video_blob = h.videoBlob;
  }
  if (withKeyframe && h.keyframeBlob) {
    item.keyframe_bucket = h.bucket;
    item.keyframe_blob = h.keyframeBlob;
  }
  return item;
}

export function captionItem(h: SegmentHit, queryVector: Float32Array, accountId: number): CaptionItem {
  const stored = h.captionVector
    ? new Float32Array(h.captionVector.buffer, h.captionVector.byteOffset, h.captionVector.byteLength / 4)
    : lexicalVector(captionContent(h.caption));
  const similarity = Math.max(0, Math.min(1, cosine(queryVector, stored)));
  const item: CaptionItem = {
    video_no: h.videoNo,
    text: h.caption,
    vector: Array.from(stored, (x) => Math.round(x * 1e6) / 1e6),
    user_id: userNamespace(accountId),
    start_time: h.start,
    end_time: h.end,
    score: Math.round(similarity * 10_000) / 10_000,
  };
  if (h.matched) item.matched = h.matched;
  if (h.missing.length) item.missing = h.missing;
  if (h.keyframeBlob) {
    item.keyframe_bucket = h.bucket;
    item.keyframe_blob = h.keyframeBlob;
  }
  return item;
}

export interface ImageHit {
  segmentId: number;
  videoName: string;
  start: number;
  bucket: string;
  keyframeBlob: string | null;
  score: number;
  datetimeTaken: string | null;
  cameraModel: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** The contract's paginated image object over keyframes; img_url is the keyframe's download path. */
export function imagePage(total: number, page: number, pageSize: number, hits: ImageHit[]): ImagePage {
  return {
    current_page: page,
    page_size: pageSize,
    total_count: total,
    item: hits.map((h) => ({
      id: h.segmentId,
      name: `${h.videoName} @ ${h.start.toFixed(1)}s`,
      img_url: `/serve/api/v1/download?bucket=${encodeURIComponent(h.bucket)}&blob=${h.keyframeBlob ?? ''}`,
      datetime_taken: h.datetimeTaken ? Date.parse(`${h.datetimeTaken.replace(' ', 'T')}Z`) : 0,
      camera_model: h.cameraModel ?? '',
      latitude: h.latitude ?? 0,
      longitude: h.longitude ?? 0,
      score: h.score,
      bucket: h.bucket,
      blob: h.keyframeBlob ?? '',
    })),
  };
}
