import type { Datalake } from './datalake';
import type { DlVideoRow } from './dl-videos';
import { iso } from './iso-time';
import { faceEntities } from './face-entities';

/** The datalake video record of GET /videos and GET /videos/{id}. */
export async function videoRecord(dl: Datalake, v: DlVideoRow) {
  const library = v.library_video_id ? await dl.ctx.videos.byId(v.library_video_id) : undefined;
  const collection = await dl.collections.byId(v.collection_id);
  const op = v.operation_id ? await dl.operations.byId(v.operation_id) : undefined;
  const frames = await dl.events.frameSummary(v.id);
  return {
    video_id: v.id,
    collection_id: v.collection_id,
    status: v.status,
    source: {
      type: v.source_type,
      url: v.source_url,
      ...(v.stream_id ? { stream_id: v.stream_id, offset: v.stream_offset } : {}),
    },
    filename: v.filename,
    size: library?.size ?? v.upload_size,
    duration: library?.duration ?? null,
    width: library?.width ?? null,
    height: library?.height ?? null,
    fps: v.fps,
    metadata: v.metadata,
    operation: v.operation_id,
    error: op?.error_code ? { code: op.error_code, message: op.error_message ?? '' } : null,
    searchable: library?.status === 'PARSE',
    safety: collection?.safety_detector
      ? { frames_classified: frames.frames, max_unsafe_score: frames.maxUnsafe, events: await dl.events.count(v.id) }
      : null,
    faces: collection?.face_recognition ? await faceEntities(dl.ctx.sql, v.id) : null,
    created_at: iso(v.created_at),
    updated_at: iso(v.updated_at),
  };
}
