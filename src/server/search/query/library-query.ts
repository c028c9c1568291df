import { z } from 'zod';
import { isValidDatetime, SEARCH_LIMITS, SEARCH_TYPES } from '../../../shared/api-types';

/** A search of interface A: the body of POST /search (and of the JSON form of /search_image), every field and limit of the contract. */
export const libraryQuery = z
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

export type LibraryQuery = z.infer<typeof libraryQuery>;
