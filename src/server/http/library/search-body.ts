import { z } from 'zod';
import { isValidDatetime, SEARCH_LIMITS, SEARCH_TYPES, type ImagePage } from '../../../shared/api-types';

/** Body of POST /search (and of the JSON form of /search_image): every field and limit of the contract. */
export const searchBody = z
  .object({
    search_param: z
      .string({ error: 'search_param is required' })
      .trim()
      .min(1, 'search_param must not be empty')
      .max(1000),
    search_type: z
      .enum(SEARCH_TYPES, { error: `search_type must be one of ${SEARCH_TYPES.join(', ')}` })
      .default('BY_CLIP'),
    folder_id: z.number().int().optional(),
    unique_id: z.string().max(200).optional(),
    top_k: z.number().int().nullable().optional(),
    filtering_level: z.enum(['low', 'medium', 'high']).optional(),
    video_nos: z
      .array(z.string().max(100))
      .max(SEARCH_LIMITS.videoNosMax, `video_nos takes at most ${SEARCH_LIMITS.videoNosMax} ids`)
      .optional(),
    tag: z.string().max(100).optional(),
    camera_tag: z.string().max(200).optional(),
    datetime_taken: z
      .string()
      .refine(isValidDatetime, 'datetime_taken must be in the format yyyy-MM-dd HH:mm:ss')
      .optional(),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    radius_km: z.number().positive().max(20_000).default(1),
    page: z.number().int().min(1).default(1),
  })
  .refine(
    (b) => (b.latitude === undefined) === (b.longitude === undefined),
    'latitude and longitude must be given together',
  );

export type SearchBody = z.infer<typeof searchBody>;

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
