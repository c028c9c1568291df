import { z } from 'zod';

export const ADD_PATH_OUTCOMES = ['watching', 'already-watched', 'rejected'] as const;
export type AddPathOutcome = (typeof ADD_PATH_OUTCOMES)[number];

/** An absolute POSIX or Windows path, as a file manager or a typed path gives it. */
const absolutePath = z
  .string()
  .trim()
  .min(2)
  .max(4096)
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), { message: 'an absolute path is required' })
  .refine((p) => !p.includes('\0'), { message: 'a path cannot contain NUL' });

export const addPathResultSchema = z.object({
  path: z.string(),
  outcome: z.enum(ADD_PATH_OUTCOMES),
  /** Why a path was refused, or what happened to it. */
  detail: z.string(),
  /** The watch folder that now covers the path. */
  watchId: z.number().int().nullable(),
});
export type AddPathResult = z.infer<typeof addPathResultSchema>;

const clipTarget = z.object({ id: z.number().int().positive() }).strict();
const fileTarget = z.object({ id: z.number().int().positive() }).strict();
const desktopAnswer = z.object({ done: z.boolean(), detail: z.string() });

/** Things a desktop does with files: paths dropped on the window, clips dragged out or revealed in the file manager. */
export const desktopChannels = {
  /** Folders (and files inside watched folders) dropped or typed: validated, then watched and queued. */
  'sync:add-paths': {
    req: z.object({ paths: z.array(absolutePath).min(1).max(200) }).strict(),
    res: z.object({ results: z.array(addPathResultSchema) }),
  },
  /** Starts an OS drag of the clip file (Electron's webContents.startDrag); the web mode cannot, and says so. */
  'clips:drag-out': { req: clipTarget, res: desktopAnswer },
  /**
   * Shows the clip file in the system file manager: Electron's shell.showItemInFolder; the web mode runs the platform's
   * file manager on its own (loopback) machine. `done: false` carries the path to show instead.
   */
  'clips:reveal': { req: clipTarget, res: desktopAnswer },
  /** The same for a library file (a synced file of a watch folder), by its id: never an arbitrary path. */
  'files:reveal': { req: fileTarget, res: desktopAnswer },
} as const;
