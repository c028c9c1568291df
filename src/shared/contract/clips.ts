import { z } from 'zod';
import { grantId, ON_EXISTS, oneDestination, storageAddress } from './destination-fields';

export const CLIP_MODES = ['accurate', 'copy'] as const;
export const CLIP_FORMATS = ['mp4', 'mov', 'mkv'] as const;
export const CLIP_STATES = ['queued', 'downloading', 'cutting', 'ready', 'failed'] as const;
export const EXPORT_FORMATS = ['csv', 'edl', 'fcpxml', 'xmeml', 'otio'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** The file extension of each export format (Premiere's xmeml is an .xml file). */
export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = {
  csv: 'csv',
  edl: 'edl',
  fcpxml: 'fcpxml',
  xmeml: 'xml',
  otio: 'otio',
};
/** A marker list's frame rate (EDL timecodes, FCPXML sequence): 'auto' takes the most common rate of the clips. */
export const EXPORT_FRAME_RATES = [
  'auto',
  '23.976',
  '24',
  '25',
  '29.97',
  '29.97-df',
  '30',
  '50',
  '59.94',
  '59.94-df',
  '60',
] as const;
export type ExportFrameRate = (typeof EXPORT_FRAME_RATES)[number];

const seconds = z
  .number()
  .finite()
  .min(0)
  .max(7 * 24 * 3600);

export const clipViewSchema = z.object({
  id: z.number().int(),
  videoNo: z.string(),
  videoName: z.string(),
  /** The editor's name for the clip ('' when none was given: show the video's name). */
  name: z.string(),
  /** The local original the clip was cut from (a watched file or a downloaded copy). */
  sourcePath: z.string().nullable(),
  /** The hit's range in the source, seconds; the file holds [start - handles, end + handles] clamped to the video. */
  start: z.number(),
  end: z.number(),
  handles: z.number(),
  mode: z.enum(CLIP_MODES),
  format: z.enum(CLIP_FORMATS),
  state: z.enum(CLIP_STATES),
  error: z.string().nullable(),
  /** The clip file, once cut. */
  path: z.string().nullable(),
  duration: z.number().nullable(),
  fps: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** The clip file has sound (probed after the cut); null until known. */
  hasAudio: z.boolean().nullable(),
  query: z.string(),
  searchType: z.string().nullable(),
  /** Caption or transcript text of the hit: what the local search matches. */
  text: z.string(),
  score: z.number().nullable(),
  thumbnailPath: z.string().nullable(),
  tags: z.array(z.string()),
  notes: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type ClipView = z.infer<typeof clipViewSchema>;

export const saveClipSchema = z
  .object({
    videoNo: z.string().min(1).max(100),
    start: seconds,
    end: seconds,
    handles: z.number().finite().min(0).max(600).default(0),
    mode: z.enum(CLIP_MODES).default('accurate'),
    format: z.enum(CLIP_FORMATS).default('mp4'),
    /** Folder for the clip file, inside an allowed root (destinations:roots); the library's clips folder by default. */
    outDir: z.string().min(1).max(4096).optional(),
    /** Or a folder the user chose in the desktop app's dialog (destinations:choose, purpose clips): its one-time grant. */
    outDirGrant: grantId.optional(),
    /** File name (sanitised, never overwriting); derived from the video and range by default. */
    outName: z.string().min(1).max(255).optional(),
    videoName: z.string().max(1000).optional(),
    name: z.string().trim().max(200).optional(),
    query: z.string().max(1000).default(''),
    searchType: z.string().max(20).optional(),
    text: z.string().max(20_000).default(''),
    score: z.number().optional(),
    video: z.object(storageAddress).strict().optional(),
    keyframe: z.object(storageAddress).strict().optional(),
    tags: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
    notes: z.string().max(20_000).default(''),
  })
  .strict()
  .refine((r) => r.end > r.start, { message: 'end must be after start', path: ['end'] })
  .refine((r) => oneDestination(r, 'outDir', 'outDirGrant'), {
    message: 'give outDir or outDirGrant, not both',
    path: ['outDirGrant'],
  });
export type SaveClipRequest = z.input<typeof saveClipSchema>;

const clipId = z.object({ id: z.number().int().positive() }).strict();

/** The clips library: saved ranges cut to files, their stills, marker-list exports. All of it works offline. */
export const clipsChannels = {
  'clips:save': { req: saveClipSchema, res: clipViewSchema },
  'clips:get': { req: clipId, res: clipViewSchema },
  'clips:list': {
    req: z
      .object({
        page: z.number().int().min(1).default(1),
        size: z.number().int().min(1).max(500).default(100),
        tag: z.string().min(1).max(100).optional(),
        videoNo: z.string().min(1).max(100).optional(),
      })
      .strict(),
    res: z.object({ clips: z.array(clipViewSchema), total: z.number().int() }),
  },
  /** Local full-text search over the clips' name, caption/transcript text, notes, tags, query and video name. */
  'clips:search': {
    req: z
      .object({
        text: z.string().trim().min(1).max(500),
        limit: z.number().int().min(1).max(500).default(100),
        /** How many of the best matches to pass over: the next page of a long result. */
        offset: z.number().int().min(0).default(0),
      })
      .strict(),
    res: z.object({ clips: z.array(clipViewSchema) }),
  },
  'clips:update': {
    req: z
      .object({
        id: z.number().int().positive(),
        name: z.string().trim().max(200).optional(),
        tags: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
        notes: z.string().max(20_000).optional(),
      })
      .strict(),
    res: clipViewSchema,
  },
  'clips:delete': {
    req: z.object({ id: z.number().int().positive(), deleteFile: z.boolean().default(false) }).strict(),
    res: z.object({ deleted: z.boolean() }),
  },
  /** The clip's still (taken from the cut file, kept on local disk) as a data URL: works offline. */
  'clips:thumbnail': { req: clipId, res: z.object({ dataUrl: z.string().nullable() }) },
  /**
   * A marker list of the given clips (all when omitted): CSV, CMX3600 EDL, FCPXML, Premiere XML (xmeml) or
   * OpenTimelineIO, every event pointing at the camera original at its source timecode when this computer has it. Written when a destination is given:
   * `file` inside an allowed root (named *.<format>), or `fileGrant` from the save dialog. An existing file answers
   * `file_exists` unless onExists says `rename` (a new name) or `replace` (only with a grant). `bad_request` when
   * the list's frame rate cannot be known (no project rate given and no clip with a known rate).
   */
  'clips:export': {
    req: z
      .object({
        format: z.enum(EXPORT_FORMATS),
        /** EDL and FCPXML: one frame rate for the whole list (the project's); every timecode is converted to it. */
        frameRate: z.enum(EXPORT_FRAME_RATES).default('auto'),
        ids: z.array(z.number().int().positive()).max(10_000).optional(),
        file: z.string().min(1).max(4096).optional(),
        fileGrant: grantId.optional(),
        onExists: z.enum(ON_EXISTS).default('refuse'),
      })
      .strict()
      .refine((r) => oneDestination(r, 'file', 'fileGrant'), {
        message: 'give file or fileGrant, not both',
        path: ['fileGrant'],
      }),
    res: z.object({ content: z.string(), file: z.string().nullable(), count: z.number().int() }),
  },
} as const;

export const clipsEvents = {
  'clips:changed': z.object({ id: z.number().int(), clip: clipViewSchema.nullable() }),
} as const;
