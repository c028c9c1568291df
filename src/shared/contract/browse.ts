import { z } from 'zod';

/** How many sub-folders one answer lists at most; the rest are counted in `more`. */
export const BROWSE_LIMIT = 2000;

/**
 * A folder to list: a full path, with no ".." step (the answer names the real path; a browser walks up by `parent`)
 * and no NUL. Refused here, before the disk is touched.
 */
const browsePath = z
  .string()
  .min(1, { message: 'give a folder’s full path' })
  .max(4096)
  .refine((p) => !p.includes('\0'), { message: 'a path cannot contain NUL' })
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), {
    message: 'give the full path, starting with / (or a drive letter such as D:\\ on Windows)',
  })
  .refine((p) => !p.split(/[\\/]/).includes('..'), {
    message: 'give the path without “..”: go up with the parent folder instead',
  });

export const browsePlaceSchema = z.object({
  /** What the editor reads: "Home", "Computer", a volume's name. */
  label: z.string(),
  path: z.string(),
  kind: z.enum(['home', 'root', 'volume']),
});
export type BrowsePlace = z.infer<typeof browsePlaceSchema>;

export const browseAnswerSchema = z.object({
  /** The folder listed, as its real path (symbolic links resolved). */
  path: z.string(),
  /** The folder above it; null at a root. */
  parent: z.string().nullable(),
  /** Names of the sub-folders only (never files), sorted as a file manager does; at most BROWSE_LIMIT. */
  folders: z.array(z.string()),
  /** Sub-folders left out past BROWSE_LIMIT. */
  more: z.number().int(),
  /** Places to start from: home, the disk's root, mounted volumes. */
  places: z.array(browsePlaceSchema),
});
export type BrowseAnswer = z.infer<typeof browseAnswerSchema>;

/** The web mode's folder picker: a browser cannot give a page a folder's path, so the app lists folders for it. */
export const browseChannels = {
  /** Sub-folder names of one folder (the home folder when no path is given); hidden (dot) folders only when asked. */
  'folders:browse': {
    req: z.object({ path: browsePath.optional(), hidden: z.boolean().default(false) }).strict(),
    res: browseAnswerSchema,
  },
} as const;
