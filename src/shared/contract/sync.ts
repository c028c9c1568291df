import { z } from 'zod';

/** What the UI shows per file: the file's own state joined with its content's upload/indexing state. */
export const FILE_STATUSES = [
  'waiting',
  'skipped',
  'queued',
  'uploading',
  'indexing',
  'indexed',
  'index_failed',
  'failed',
  'cancelled',
  'deleted',
] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

export const PAUSE_REASONS = ['user', 'insufficient-balance', 'unauthorized'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];
const pauseState = z.object({ reason: z.enum(PAUSE_REASONS) }).nullable();

export const fileViewSchema = z.object({
  id: z.number().int(),
  path: z.string(),
  status: z.enum(FILE_STATUSES),
  /** In plain words (src/shared/plain-reasons.ts). */
  reason: z.string().nullable(),
  /** The raw text behind `reason` (an ffmpeg message, an errno), for the "Details" disclosure. */
  details: z.string().nullable(),
  paused: z.boolean(),
  size: z.number().int(),
  hash: z.string().nullable(),
  videoNo: z.string().nullable(),
  /** The library already held this content (found by its hash tag) or another local file carried it. */
  duplicateOf: z.string().nullable(),
  indexProgress: z.number(),
  /** Read at validation; null before it (or when the file was rejected before probing). Seconds. */
  duration: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  fps: z.number().nullable(),
  codec: z.string().nullable(),
  camera: z.string().nullable(),
  /** As the camera wrote it (ISO 8601 when it did). */
  takenAt: z.string().nullable(),
});
export type FileView = z.infer<typeof fileViewSchema>;

export const watchFolderViewSchema = z.object({
  id: z.number().int(),
  path: z.string(),
  folderId: z.number().int().nullable(),
  folderName: z.string().nullable(),
  tags: z.array(z.string()),
  ignore: z.array(z.string()),
  polling: z.enum(['auto', 'on', 'off']),
  /** When watching stopped (the files stay in the library); null while watched. */
  stoppedAt: z.number().int().nullable(),
});
export type WatchFolderView = z.infer<typeof watchFolderViewSchema>;

/** Columns the library sorts by (server side, in SQL). */
export const FILE_SORTS = [
  'added',
  'name',
  'duration',
  'resolution',
  'fps',
  'codec',
  'camera',
  'taken',
  'size',
  'status',
] as const;
export type FileSort = (typeof FILE_SORTS)[number];

const counts = z.record(z.string(), z.number().int());
export const syncStatusSchema = z.object({
  paused: pauseState,
  folders: z.number().int(),
  files: counts,
  byStatus: counts,
  jobs: z.object({ queued: z.number().int(), active: z.number().int(), failed: z.number().int() }),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

/** How a finished upload attempt ended; 'found': the library already held the content, nothing was sent. */
export const UPLOAD_RESULTS = ['uploaded', 'found', 'retrying', 'failed'] as const;
export type UploadResult = (typeof UPLOAD_RESULTS)[number];

export const uploadHistoryEntrySchema = z.object({
  id: z.number().int(),
  path: z.string(),
  hash: z.string(),
  bytes: z.number().int(),
  ms: z.number().int(),
  result: z.enum(UPLOAD_RESULTS),
  error: z.string().nullable(),
  videoNo: z.string().nullable(),
  finishedAt: z.number().int(),
});
export type UploadHistoryEntry = z.infer<typeof uploadHistoryEntrySchema>;

const fileTarget = z.object({ fileId: z.number().int().positive().optional() }).strict();

/** Sync engine channels: status, paged files, queue control, watch folders. */
export const syncChannels = {
  'sync:status': { req: z.object({}).strict(), res: syncStatusSchema },
  'sync:files': {
    req: z
      .object({
        page: z.number().int().min(1).default(1),
        size: z.number().int().min(1).max(500).default(100),
        state: z.enum(['pending', 'skipped', 'linked', 'deleted']).optional(),
        codec: z.string().min(1).max(40).optional(),
        camera: z.string().min(1).max(200).optional(),
        name: z.string().min(1).max(200).optional(),
        sort: z.enum(FILE_SORTS).default('added'),
        desc: z.boolean().default(false),
      })
      .strict(),
    res: z.object({
      files: z.array(fileViewSchema),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
  },
  /** The video codecs among the files, for the library's filter. */
  'sync:codecs': { req: z.object({}).strict(), res: z.object({ codecs: z.array(z.string()) }) },
  /** The cameras among the files, for the library's filter. */
  'sync:cameras': { req: z.object({}).strict(), res: z.object({ cameras: z.array(z.string()) }) },
  /** Without fileId: the whole queue. */
  'sync:pause': { req: fileTarget, res: z.object({ paused: z.boolean() }) },
  'sync:resume': { req: fileTarget, res: z.object({ resumed: z.boolean() }) },
  'sync:retry': { req: fileTarget, res: z.object({ requeued: z.number().int() }) },
  /**
   * Deletes the file's video from the library service and stops tracking every local file holding it (never touched
   * on disk, not uploaded again). Offline: `offline`, nothing changed.
   */
  'sync:remove': {
    req: z.object({ fileId: z.number().int().positive() }).strict(),
    /** videoNo null: a file gone from disk that was never in the library, forgotten. */
    res: z.object({ videoNo: z.string().nullable(), untracked: z.number().int() }),
  },
  'sync:cancel': {
    req: z.object({ fileId: z.number().int().positive() }).strict(),
    res: z.object({ cancelled: z.boolean() }),
  },
  'folders:add': {
    req: z
      .object({
        path: z.string().min(1).max(4096),
        folderId: z.number().int().optional(),
        folderName: z.string().min(1).max(200).optional(),
        tags: z.array(z.string().min(1).max(100)).max(19).default([]),
        ignore: z.array(z.string().min(1).max(500)).max(200).default([]),
        polling: z.enum(['auto', 'on', 'off']).default('auto'),
      })
      .strict(),
    res: watchFolderViewSchema,
  },
  /** Finished upload attempts, newest first; `failed` counts the attempts that ended for good. */
  'uploads:history': {
    req: z
      .object({ page: z.number().int().min(1).default(1), size: z.number().int().min(1).max(200).default(50) })
      .strict(),
    res: z.object({
      entries: z.array(uploadHistoryEntrySchema),
      total: z.number().int(),
      failed: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
  },
  /** The native folder picker (desktop app): the chosen folder, or null when cancelled; `bad_request` in web mode. */
  'folders:choose': { req: z.object({}).strict(), res: z.object({ path: z.string().nullable() }) },
  /** Stops watching a folder; its files stay in the library and keep playing from this computer. */
  'folders:stop': {
    req: z.object({ id: z.number().int().positive() }).strict(),
    res: z.object({ stopped: z.boolean() }),
  },
  /** Watches a stopped folder again (Undo, "Watch again") and scans it for what changed meanwhile. */
  'folders:resume': { req: z.object({ id: z.number().int().positive() }).strict(), res: watchFolderViewSchema },
  'folders:list': { req: z.object({}).strict(), res: z.object({ folders: z.array(watchFolderViewSchema) }) },
} as const;

export const syncEvents = {
  'sync:progress': z.object({
    fileId: z.number().int(),
    path: z.string(),
    hash: z.string(),
    bytes: z.number(),
    total: z.number(),
    /** Bytes per second. */
    rate: z.number(),
    etaSeconds: z.number().nullable(),
  }),
  /** A search proxy being made of a camera original the library refuses. */
  'sync:proxy-progress': z.object({
    fileId: z.number().int(),
    path: z.string(),
    hash: z.string(),
    percent: z.number(),
    /** Seconds of the original encoded per second ("x real time"). */
    speed: z.number(),
    etaSeconds: z.number().nullable(),
    encoder: z.string(),
  }),
  'sync:file-changed': z.object({
    id: z.number().int(),
    path: z.string(),
    status: z.enum(FILE_STATUSES),
    reason: z.string().nullable(),
  }),
  'sync:queue': z.object({ paused: pauseState }),
} as const;
