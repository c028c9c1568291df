import { z } from 'zod';
import { semanticQuerySchema } from '../query/semantic-query';
import type { SegmentFilter, SegmentHit } from '../segment-types';

/** What crosses between the HTTP thread and a search worker thread (worker-protocol.ts carries it). */

const filterSchema = z.object({
  accountId: z.number().int().positive(),
  folderId: z.number().int().optional(),
  videoNos: z.array(z.string()).optional(),
  tag: z.string().optional(),
  cameraModel: z.string().optional(),
  takenSince: z.string().optional(),
  near: z.object({ latitude: z.number(), longitude: z.number(), radiusKm: z.number() }).optional(),
}) satisfies z.ZodType<SegmentFilter>;

/** One search as the routes ask it: the raw query text is parsed (and expanded through WordNet) in the worker. */
export const searchRequestSchema = z.object({
  text: z.string(),
  field: z.enum(['all', 'transcript', 'caption']),
  filter: filterSchema,
  limit: z.number().int().positive(),
  semantic: semanticQuerySchema.optional(),
});
export type SearchRequest = z.infer<typeof searchRequestSchema>;

export const hitSchema = z.object({
  segmentId: z.number().int(),
  videoNo: z.string(),
  videoName: z.string(),
  bucket: z.string(),
  videoBlob: z.string().nullable(),
  keyframeBlob: z.string().nullable(),
  start: z.number(),
  end: z.number(),
  caption: z.string(),
  transcript: z.string(),
  // A Buffer crosses a thread as a plain Uint8Array.
  captionVector: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'captionVector must be bytes').nullable(),
  score: z.number(),
  matched: z.string(),
  missing: z.array(z.string()),
  tier: z.number().int().min(0).max(2),
}) satisfies z.ZodType<SegmentHit>;

export const searchWorkerDataSchema = z.object({ dbFile: z.string().min(1) });
export type SearchWorkerData = z.infer<typeof searchWorkerDataSchema>;
