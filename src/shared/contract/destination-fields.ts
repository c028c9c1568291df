import { z } from 'zod';

/** A one-time grant of a destination the user chose in a native dialog (destinations:choose). */
export const grantId = z
  .string()
  .min(16)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
export const ON_EXISTS = ['refuse', 'rename', 'replace'] as const;
/** At most one of the two ways to name a destination (a path inside an allowed root, or a dialog's grant). */
export const oneDestination = (r: Record<string, unknown>, a: string, b: string): boolean =>
  r[a] === undefined || r[b] === undefined;

/** Where an object lies in the library's storage (a video, keyframe or image). */
export const storageAddress = { bucket: z.string().min(1).max(200), blob: z.string().min(1).max(2000) };
