import { z } from 'zod';

/**
 * Messages between an upload's hash host (staged-file-hash.ts) and the hashing thread (staged-hash-worker.ts). Both
 * sides parse what they receive: a message that does not match is a bug on the other side.
 */

const id = z.number().int().positive();
/** One staged file being followed: a key of the host's, not a path (two uploads never share one). */
const job = z.number().int().positive();

export const toStagedHashSchema = z.discriminatedUnion('type', [
  /** Hash `path` from where this job left off up to byte `upTo` (already written by the upload). */
  z.object({ type: z.literal('read'), id, job, path: z.string().min(1), upTo: z.number().int().nonnegative() }),
  /** The upload wrote its last byte: hash to `size`, close the file and answer the SHA-256. */
  z.object({ type: z.literal('digest'), id, job, path: z.string().min(1), size: z.number().int().nonnegative() }),
  /** The upload failed: close the file and forget the job. */
  z.object({ type: z.literal('drop'), id, job }),
]);
export type ToStagedHash = z.infer<typeof toStagedHashSchema>;

export const fromStagedHashSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), error: z.string().nullable() }),
  /** How far the job has hashed (after a read or drop), or its digest (after a digest). */
  z.object({ type: z.literal('done'), id, hashed: z.number().int().nonnegative(), sha256: z.string().nullable() }),
  z.object({ type: z.literal('failed'), id, message: z.string() }),
]);
export type FromStagedHash = z.infer<typeof fromStagedHashSchema>;
