import { z } from 'zod';

/**
 * Messages between the drawing judge's host (nsfw-thread.ts) and its thread (nsfw-worker.ts). Both sides parse
 * what they receive: a message that does not match is a bug on the other side.
 */

export const toNsfwSchema = z.discriminatedUnion('type', [
  /** Judge whether this frame is drawn: packed RGB pixels, width * height * 3 bytes (checked by the worker). */
  z.object({
    type: z.literal('judge'),
    id: z.number().int().positive(),
    data: z.instanceof(Uint8Array),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  }),
]);
export type ToNsfw = z.infer<typeof toNsfwSchema>;

const labelSchema = z.object({ label: z.string(), score: z.number(), source: z.string() });

export const fromNsfwSchema = z.discriminatedUnion('type', [
  /** The model is loaded (`version` says which), or could not be (`error`). */
  z.object({ type: z.literal('ready'), error: z.string().nullable(), version: z.string().optional() }),
  /** The frame's drawing labels (drawn-frame.ts), none when it is not drawn. */
  z.object({ type: z.literal('labels'), id: z.number().int().positive(), labels: z.array(labelSchema) }),
  z.object({ type: z.literal('failed'), id: z.number().int().positive(), message: z.string() }),
]);
export type FromNsfw = z.infer<typeof fromNsfwSchema>;
