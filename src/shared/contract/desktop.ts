import { z } from 'zod';

export const ADD_PATH_OUTCOMES = ['watching', 'already-watched', 'rejected'] as const;
export type AddPathOutcome = (typeof ADD_PATH_OUTCOMES)[number];

/** An absolute POSIX or Windows path, as a file manager or a typed path gives it. */
const absolutePath = z
  .string()
  .trim()
  .min(2)
  .max(4096)
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), {
    message: 'give the full path, starting with / (or a drive letter such as D:\\ on Windows)',
  })
  .refine((p) => !p.includes('\0'), { message: 'a path cannot contain NUL' });

export const PATH_KINDS = ['folder', 'file'] as const;
export type PathKind = (typeof PATH_KINDS)[number];

export const addPathResultSchema = z.object({
  path: z.string(),
  /** What the path turned out to be on disk; null when it could not be read (or was not a full path). */
  kind: z.enum(PATH_KINDS).nullable(),
  outcome: z.enum(ADD_PATH_OUTCOMES),
  /** Why a path was refused, or what happened to it. */
  detail: z.string(),
  /** The watch folder that now covers the path. */
  watchId: z.number().int().nullable(),
});
export type AddPathResult = z.infer<typeof addPathResultSchema>;

/** Where newly watched paths file their footage and what they skip (folders already watched keep theirs). */
export const addPathOptionsSchema = z
  .object({
    folderId: z.number().int().optional(),
    tags: z.array(z.string().min(1).max(100)).max(19).optional(),
    ignore: z.array(z.string().min(1).max(500)).max(200).optional(),
    polling: z.enum(['auto', 'on', 'off']).optional(),
  })
  .strict();
export type AddPathOptions = z.infer<typeof addPathOptionsSchema>;

/** Typed, dropped or picked path text: relative ones are answered per path (refused, with the reason), not here. */
const pathText = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), { message: 'a path cannot contain NUL' });

export const DESTINATION_PURPOSES = ['export', 'clips', 'downloads'] as const;
const destinationRoots = z.object({
  /** Folders the channels may write into by path (real paths): the data folder's clips, exports, downloads, plus Settings'. */
  roots: z.array(z.object({ path: z.string(), builtin: z.boolean() })),
  /** A native dialog can grant any other destination (the desktop app); the web mode has none. */
  dialog: z.boolean(),
  /** The folder new clips are saved into by default (Settings), inside one of the roots. */
  clipsDir: z.string(),
});

const clipTarget = z.object({ id: z.number().int().positive() }).strict();
const fileTarget = z.object({ id: z.number().int().positive() }).strict();
const desktopAnswer = z.object({ done: z.boolean(), detail: z.string() });

/** Things a desktop does with files: paths dropped on the window, clips dragged out or revealed in the file manager. */
export const desktopChannels = {
  /** Folders (and files inside watched folders) dropped or typed: validated, then watched and queued. */
  'sync:add-paths': {
    req: z.object({ paths: z.array(pathText).min(1).max(200), options: addPathOptionsSchema.default({}) }).strict(),
    res: z.object({ results: z.array(addPathResultSchema) }),
  },
  /** Starts an OS drag of the clip file (Electron's webContents.startDrag); the web mode cannot, and says so. */
  'clips:drag-out': { req: clipTarget, res: desktopAnswer },
  /** Where exports, clips and downloads may be written by path. */
  'destinations:roots': { req: z.object({}).strict(), res: destinationRoots },
  /** Replaces the folders configured in Settings; each must exist and be no system, hidden or data folder. */
  'destinations:set-roots': { req: z.object({ paths: z.array(absolutePath).max(50) }).strict(), res: destinationRoots },
  /** Sets the default clips folder: a path inside one of the roots (created when missing), or null for the built-in one. */
  'destinations:set-clips-dir': { req: z.object({ path: absolutePath.nullable() }).strict(), res: destinationRoots },
  /**
   * Runs the native save dialog (export) or folder picker (clips, downloads) in main; the answer is a one-time grant
   * the writing channel accepts. Null when the user cancelled; `bad_request` in web mode (no dialog).
   */
  'destinations:choose': {
    req: z
      .object({ purpose: z.enum(DESTINATION_PURPOSES), suggestedName: z.string().min(1).max(255).optional() })
      .strict(),
    res: z.object({ chosen: z.object({ grant: z.string(), path: z.string() }).nullable() }),
  },
  /**
   * Shows the clip file in the system file manager: Electron's shell.showItemInFolder; the web mode runs the platform's
   * file manager on its own (loopback) machine. `done: false` carries the path to show instead.
   */
  'clips:reveal': { req: clipTarget, res: desktopAnswer },
  /** The same for a library file (a synced file of a watch folder), by its id: never an arbitrary path. */
  'files:reveal': { req: fileTarget, res: desktopAnswer },
} as const;
