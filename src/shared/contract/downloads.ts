import { z } from 'zod';
import { grantId, oneDestination, storageAddress } from './destination-fields';

export const DOWNLOAD_VIEW_KINDS = ['video', 'keyframe', 'image'] as const;
export const DOWNLOAD_VIEW_STATES = ['queued', 'downloading', 'done', 'failed', 'gone', 'cancelled'] as const;

export const quoteSchema = z.object({
  /** Size of the resource when the service tells it (videos: get_metadata), else null. */
  bytes: z.number().int().nullable(),
  /** 0.12 USD per GB (10^9 bytes) of `bytes`, rounded up to the micro-dollar; null when the size is unknown. */
  usd: z.number().nullable(),
  note: z.string(),
});
export type Quote = z.infer<typeof quoteSchema>;

export const downloadViewSchema = z.object({
  id: z.number().int(),
  kind: z.enum(DOWNLOAD_VIEW_KINDS),
  bucket: z.string(),
  blob: z.string(),
  videoNo: z.string().nullable(),
  state: z.enum(DOWNLOAD_VIEW_STATES),
  bytes: z.number().int(),
  total: z.number().int().nullable(),
  destDir: z.string(),
  path: z.string().nullable(),
  quote: quoteSchema,
  restarts: z.number().int(),
  resumes: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type DownloadView = z.infer<typeof downloadViewSchema>;

export const downloadProgressSchema = z.object({
  id: z.number().int(),
  state: z.enum(DOWNLOAD_VIEW_STATES),
  bytes: z.number().int(),
  total: z.number().int().nullable(),
  /** Bytes per second, smoothed. */
  rate: z.number(),
  etaSeconds: z.number().nullable(),
});
export type DownloadProgress = z.infer<typeof downloadProgressSchema>;

/** Downloads of library objects to local folders, priced first, resumable. */
export const downloadsChannels = {
  'downloads:list': {
    req: z
      .object({
        states: z.array(z.enum(DOWNLOAD_VIEW_STATES)).optional(),
        limit: z.number().int().min(1).max(1000).default(200),
      })
      .strict(),
    res: z.object({ downloads: z.array(downloadViewSchema) }),
  },
  'downloads:quote': {
    req: z.object({ ...storageAddress, videoNo: z.string().min(1).max(100).optional() }).strict(),
    res: quoteSchema,
  },
  'downloads:start': {
    req: z
      .object({
        ...storageAddress,
        kind: z.enum(DOWNLOAD_VIEW_KINDS).default('video'),
        videoNo: z.string().min(1).max(100).optional(),
        /** Inside an allowed root (destinations:roots); the library's downloads folder by default. */
        destDir: z.string().min(1).max(4096).optional(),
        /** Or a folder chosen in the desktop app's dialog (destinations:choose, purpose downloads). */
        destDirGrant: grantId.optional(),
      })
      .strict()
      .refine((r) => oneDestination(r, 'destDir', 'destDirGrant'), {
        message: 'give destDir or destDirGrant, not both',
        path: ['destDirGrant'],
      }),
    res: downloadViewSchema,
  },
  'downloads:cancel': {
    req: z.object({ id: z.number().int().positive() }).strict(),
    res: z.object({ cancelled: z.boolean() }),
  },
  'downloads:retry': { req: z.object({ id: z.number().int().positive() }).strict(), res: downloadViewSchema },
} as const;

export const downloadsEvents = {
  'downloads:progress': downloadProgressSchema,
} as const;
