import { z } from 'zod';

export const UI_SEARCH_TYPES = ['BY_CLIP', 'BY_AUDIO', 'BY_CAPTION'] as const;
export type UiSearchType = (typeof UI_SEARCH_TYPES)[number];

export const searchHitSchema = z.object({
  /** Stable within one answer: videoNo@start-end. */
  id: z.string(),
  videoNo: z.string(),
  videoName: z.string().nullable(),
  /** Seconds. */
  start: z.number(),
  end: z.number(),
  /** 0..1. */
  score: z.number(),
  /** Transcript or caption line of the hit, when the service has one. */
  text: z.string().nullable(),
  keyframe: z.object({ bucket: z.string(), blob: z.string() }).nullable(),
  /** Why it matched ("on screen: 'SCENE 12'", "seen: car", "file name"), when the service says (Reelsync's does, the cloud not). */
  why: z.string().optional(),
  /** The query's words this hit lacks, when the service says (Reelsync's does): see unmatchedWords in api-types.ts. */
  missing: z.array(z.string()).optional(),
  /** A local original of this video on this computer, when one exists. */
  localPath: z.string().nullable(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchRequestSchema = z
  .object({
    query: z.string().trim().min(1).max(1000),
    type: z.enum(UI_SEARCH_TYPES).default('BY_CLIP'),
    topK: z.number().int().min(1).max(200).default(60),
    folderId: z.number().int().optional(),
    tag: z.string().min(1).max(100).optional(),
    camera: z.string().min(1).max(200).optional(),
    /** yyyy-MM-dd HH:mm:ss: captured at or after. */
    takenAfter: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
      .optional(),
    gps: z
      .object({
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        radiusKm: z.number().positive().max(20_000),
      })
      .strict()
      .optional(),
    filteringLevel: z.enum(['low', 'medium', 'high']).optional(),
  })
  .strict();
export type SearchRequestView = z.input<typeof searchRequestSchema>;

/** The camera original's identity as the player shows its source timecode. */
export const sourceIdentitySchema = z.object({
  startFrame: z.number().int().nonnegative(),
  /** Exact rate "num/den". */
  rate: z.string(),
  dropFrame: z.boolean(),
  startTimecode: z.string(),
  reel: z.string().nullable(),
  clipName: z.string(),
  codec: z.string().nullable(),
  /** The codec's profile as ffprobe names it ("HQ"), shown with the codec's name ("Apple ProRes 422 HQ"). */
  profile: z.string().nullable().optional(),
});
export type SourceIdentity = z.infer<typeof sourceIdentitySchema>;

/**
 * What the player plays: the original, its search proxy or a downloaded library copy (for what a browser cannot
 * decode: ProRes, DNxHD, MXF, MTS); `unplayable` when only an original the browser cannot decode is here; `none`.
 */
export const playbackSchema = z.object({
  kind: z.enum(['original', 'proxy', 'library', 'unplayable', 'none']),
  path: z.string().nullable(),
});
export type Playback = z.infer<typeof playbackSchema>;

export const videoDetailSchema = z.object({
  videoNo: z.string(),
  name: z.string(),
  status: z.enum(['UNPARSE', 'PARSE', 'FAIL']),
  progress: z.number(),
  failReason: z.string().nullable(),
  duration: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  fps: z.number().nullable(),
  codec: z.string().nullable(),
  cameraModel: z.string().nullable(),
  datetimeTaken: z.string().nullable(),
  tags: z.array(z.string()),
  /** The local original, when a watched folder holds this video. */
  localPath: z.string().nullable(),
  /** Where the library keeps the original (what a clip without a local original downloads), and its size. */
  original: z.object({ bucket: z.string(), blob: z.string(), bytes: z.number().int().nullable() }).nullable(),
  /** The local original's timecode, reel and clip name; null when no original is here or it cannot be read. */
  source: sourceIdentitySchema.nullable(),
  playback: playbackSchema,
});
export type VideoDetail = z.infer<typeof videoDetailSchema>;

/** A video's speech as the library transcribed it: one line per indexed segment, in media-time order (seconds). */
export const transcriptSchema = z.object({
  lines: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })),
});
export type Transcript = z.infer<typeof transcriptSchema>;

export const remoteFolderSchema = z.object({
  folderId: z.number().int(),
  name: z.string(),
  videoCount: z.number().int(),
});

/** Library browsing channels: search, one video's detail, the service's folders. */
export const libraryChannels = {
  'search:run': {
    req: searchRequestSchema,
    res: z.object({ hits: z.array(searchHitSchema), tookMs: z.number() }),
  },
  'library:video': {
    req: z.object({ videoNo: z.string().min(1).max(100) }).strict(),
    res: videoDetailSchema,
  },
  'library:transcript': {
    req: z.object({ videoNo: z.string().min(1).max(100) }).strict(),
    res: transcriptSchema,
  },
  'library:folders': {
    req: z.object({}).strict(),
    res: z.object({ folders: z.array(remoteFolderSchema) }),
  },
} as const;
