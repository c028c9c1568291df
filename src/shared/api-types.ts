import { z } from 'zod';

/**
 * Wire types of the Video Library API (../shared/video-library-api.md), interface A.
 * The service builds its answers from these and the client parses answers with them.
 */

export const API_BASE_PATH = '/serve/api/v1';
export const API_V2_BASE_PATH = '/serve/api/v2';
export const DATALAKE_BASE_PATH = '/serve/datalake/v1';

/** Envelope codes: 0000 success, 0001 the contract's listed errors, and the real service's extra codes. */
export const ENVELOPE_CODES = {
  success: '0000',
  error: '0001',
  unauthorized: '0401',
  insufficientBalance: '0402',
  duplicate: '0409',
  rateLimited: '0429',
} as const;
export type EnvelopeCode = (typeof ENVELOPE_CODES)[keyof typeof ENVELOPE_CODES];

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({
    code: z.string(),
    msg: z.string(),
    data: data.nullable(),
    success: z.boolean(),
    failed: z.boolean(),
  });

export type Envelope<T> = { code: string; msg: string; data: T | null; success: boolean; failed: boolean };

/** Messages the contract fixes word for word. */
export const API_MESSAGES = {
  success: 'success',
  bucketRequired: 'Bucket cannot be null or empty',
  blobRequired: 'Blob cannot be null or empty',
  resourceMissing: 'Resource does not exist',
  downloadBalance: 'Insufficient balance to download the resource. Please recharge and try again.',
  rateLimited: 'Request has exceeded the limit.',
} as const;

export const VIDEO_STATUSES = ['UNPARSE', 'PARSE', 'FAIL'] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

export const uploadedVideoSchema = z.object({
  videoNo: z.string(),
  videoName: z.string(),
  videoStatus: z.enum(VIDEO_STATUSES),
  uploadTime: z.string(),
});
export type UploadedVideo = z.infer<typeof uploadedVideoSchema>;

export const metadataSchema = z.object({
  video_no: z.string(),
  videoNo: z.string(),
  video_name: z.string(),
  original_name: z.string(),
  status: z.enum(VIDEO_STATUSES),
  /** Indexing progress 0..100. */
  progress: z.number(),
  fail_reason: z.string().nullable(),
  duration: z.number().nullable(),
  size: z.number(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  fps: z.number().nullable(),
  codec: z.string().nullable(),
  create_time: z.string(),
  datetime_taken: z.string().nullable(),
  camera_model: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  tags: z.array(z.string()),
  folder_id: z.number().int(),
  video_bucket: z.string(),
  video_blob: z.string(),
  poster_bucket: z.string().nullable(),
  poster_blob: z.string().nullable(),
  /** Analyzers that could not run on this machine (engine missing), with why. */
  missing_engines: z.array(z.object({ analyzer: z.string(), reason: z.string() })),
});
export type VideoMetadata = z.infer<typeof metadataSchema>;

export const SEARCH_TYPES = ['BY_CLIP', 'BY_VIDEO', 'BY_AUDIO', 'BY_IMAGE', 'BY_CAPTION'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const FILTERING_LEVELS = { low: 0.15, medium: 0.225, high: 0.4 } as const;
export type FilteringLevel = keyof typeof FILTERING_LEVELS;

export const clipItemSchema = z.object({
  videoNo: z.string(),
  videoName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  audio_ts: z.string().optional(),
  score: z.number(),
  video_bucket: z.string().optional(),
  video_blob: z.string().optional(),
  keyframe_bucket: z.string().optional(),
  keyframe_blob: z.string().optional(),
  /** Reelsync's service only (the cloud has no such field): why the segment matched, e.g. "on screen: 'SCENE 12'". */
  matched: z.string().optional(),
  /** Reelsync's service only: the query's words this hit has nothing for (see unmatchedWords). */
  missing: z.array(z.string()).optional(),
});
export type ClipItem = z.infer<typeof clipItemSchema>;

/**
 * The query's words that no result matched, from the items' `missing` (Reelsync's service only): what every item is
 * missing. Empty when there are no items (nothing to say beside "no results") or one matched them all.
 */
export function unmatchedWords(items: readonly { missing?: string[] }[]): string[] {
  if (items.length === 0) return [];
  return (items[0]!.missing ?? []).filter((w) => items.every((i) => i.missing?.includes(w)));
}

export const captionItemSchema = z.object({
  video_no: z.string(),
  text: z.string(),
  vector: z.array(z.number()),
  user_id: z.string(),
  start_time: z.number(),
  end_time: z.number(),
  score: z.number(),
  /** Reelsync's service only (the cloud has none of these): why it matched, and the segment's keyframe. */
  matched: z.string().optional(),
  missing: z.array(z.string()).optional(),
  keyframe_bucket: z.string().optional(),
  keyframe_blob: z.string().optional(),
});
export type CaptionItem = z.infer<typeof captionItemSchema>;

export const imageItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  img_url: z.string(),
  datetime_taken: z.number().int(),
  camera_model: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  score: z.number(),
  bucket: z.string(),
  blob: z.string(),
});
export const imagePageSchema = z.object({
  current_page: z.number().int(),
  page_size: z.number().int(),
  total_count: z.number().int(),
  item: z.array(imageItemSchema),
});

export type ImagePage = z.infer<typeof imagePageSchema>;

export const listVideosDataSchema = z.object({
  videos: z.array(metadataSchema),
  current_page: z.number().int(),
  page_size: z.number().int(),
  total_count: z.number().int(),
});

export const transcriptionSchema = z.object({
  videoNo: z.string(),
  transcriptions: z.array(
    z.object({ index: z.number().int(), content: z.string(), startTime: z.number(), endTime: z.number() }),
  ),
});

export const folderSchema = z.object({
  folder_id: z.number().int(),
  name: z.string(),
  unique_id: z.string().nullable(),
  video_count: z.number().int(),
  create_time: z.string(),
});
export type Folder = z.infer<typeof folderSchema>;

/** Body the service POSTs to an upload's callback URL when indexing ends. */
export const uploadCallbackSchema = z.object({ videoNo: z.string(), status: z.enum(['PARSE', 'FAIL']) });

/** yyyy-MM-dd HH:mm:ss, a real calendar date and time. */
export const DATETIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
export function isValidDatetime(value: string): boolean {
  const m = DATETIME_PATTERN.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    s < 60
  );
}

export const UPLOAD_LIMITS = {
  maxBytes: 3 * 1024 * 1024 * 1024,
  extensions: ['.mp4', '.avi', '.mkv', '.mov'],
  codecs: ['h264', 'h265', 'hevc', 'vp9'],
  callbackMaxLength: 299,
  cameraModelMaxLength: 200,
  maxTags: 20,
} as const;

export const SEARCH_LIMITS = {
  topKDefault: 100,
  topKMax: 1000,
  captionTopKMax: 200,
  captionTopKDefault: 10,
  videoNosMax: 100,
} as const;

/** Prices in micro-dollars (1 USD = 1,000,000). */
export const PRICES_MICRO_USD = {
  indexPerVideoMinute: 500, // 0.5 USD per 1000 minutes
  search: 100, // 0.0001 USD per call
  downloadPerGb: 120_000, // 0.12 USD per GB (10^9 bytes)
  safetyEventsCall: 1_000, // 0.001 USD per call
} as const;
