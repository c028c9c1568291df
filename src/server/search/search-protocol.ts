import { z } from 'zod';
import type { SegmentFilter, SegmentHit } from './search-segments';

/**
 * Messages between the HTTP thread and a search worker thread. Both sides parse what they receive: a message that
 * does not match is a bug on the other side, never something to guess at.
 */

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
});
export type SearchRequest = z.infer<typeof searchRequestSchema>;

const hitSchema = z.object({
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
  captionVector: z.custom<Uint8Array>((v) => v instanceof Uint8Array, "captionVector must be bytes").nullable(),
  score: z.number(),
}) satisfies z.ZodType<SegmentHit>;

const jobId = z.number().int().positive();

export const toSearchWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('search'), id: jobId, request: searchRequestSchema }),
  z.object({ type: z.literal('close') }),
]);
export type ToSearchWorker = z.infer<typeof toSearchWorkerSchema>;

export const fromSearchWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), id: jobId, hits: z.array(hitSchema) }),
  z.object({ type: z.literal('failed'), id: jobId, error: z.object({ name: z.string(), message: z.string() }) }),
]);
export type FromSearchWorker = z.infer<typeof fromSearchWorkerSchema>;

export const searchWorkerDataSchema = z.object({ dbFile: z.string().min(1) });
export type SearchWorkerData = z.infer<typeof searchWorkerDataSchema>;
