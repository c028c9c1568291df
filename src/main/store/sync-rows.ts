import { z } from 'zod';

/** The client database's rows of watch folders, files and contents (client migrations), as the sync store reads them. */

const jsonStrings = z.string().transform((s) => z.array(z.string()).parse(JSON.parse(s)));

export const POLLING_MODES = ['auto', 'on', 'off'] as const;
export type PollingMode = (typeof POLLING_MODES)[number];

export const watchFolderRowSchema = z.object({
  id: z.number().int(),
  path: z.string(),
  folder_id: z.number().int().nullable(),
  folder_name: z.string().nullable(),
  tags: jsonStrings,
  ignore: jsonStrings,
  polling: z.enum(POLLING_MODES),
  created_at: z.number().int(),
  /** When the editor stopped watching it (its files stay in the library); null while watched. */
  stopped_at: z.number().int().nullable(),
});
export type WatchFolderRow = z.output<typeof watchFolderRowSchema>;

export const FILE_STATES = ['pending', 'skipped', 'linked', 'deleted'] as const;
export type FileState = (typeof FILE_STATES)[number];

export const fileRowSchema = z.object({
  id: z.number().int(),
  watch_id: z.number().int(),
  path: z.string(),
  size: z.number().int(),
  mtime_ms: z.number().int(),
  observed_at: z.number().int(),
  hashed_size: z.number().int().nullable(),
  hashed_mtime_ms: z.number().int().nullable(),
  hash: z.string().nullable(),
  state: z.enum(FILE_STATES),
  reason: z.string().nullable(),
  paused: z
    .number()
    .int()
    .transform((v) => v !== 0),
  seen_scan: z.number().int(),
  updated_at: z.number().int(),
  duration: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  fps: z.number().nullable(),
  codec: z.string().nullable(),
  camera: z.string().nullable(),
  taken_at: z.string().nullable(),
});
export type FileRow = z.output<typeof fileRowSchema>;

/** What validation and the capture metadata tell about a file's picture. */
export interface FileMedia {
  duration: number | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  codec: string | null;
  camera: string | null;
  takenAt: string | null;
}

export const CONTENT_STATES = [
  'queued',
  'uploading',
  'indexing',
  'indexed',
  'index_failed',
  'failed',
  'cancelled',
] as const;
export type ContentState = (typeof CONTENT_STATES)[number];

export const uploadMetaSchema = z.object({
  camera_model: z.string().max(200).optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  datetime_taken: z.string().optional(),
});
export type UploadMeta = z.infer<typeof uploadMetaSchema>;

export const contentRowSchema = z.object({
  hash: z.string(),
  size: z.number().int(),
  state: z.enum(CONTENT_STATES),
  video_no: z.string().nullable(),
  found_existing: z
    .number()
    .int()
    .transform((v) => v !== 0),
  folder_id: z.number().int().nullable(),
  tags: jsonStrings,
  meta: z.string().transform((s) => uploadMetaSchema.parse(JSON.parse(s))),
  reason: z.string().nullable(),
  superseded_by: z.string().nullable(),
  progress: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type ContentRow = z.output<typeof contentRowSchema>;
