import { z } from 'zod';

/**
 * Messages between the drawing classifier's host (nsfw-thread.ts) and its thread (nsfw-worker.ts). Both sides parse
 * what they receive: a message that does not match is a bug on the other side.
 */

export const toNsfwSchema = z.discriminatedUnion('type', [
  /** Packed RGB pixels, width * height * 3 bytes (checked by the worker). */
  z.object({
    type: z.literal('classify'),
    id: z.number().int().positive(),
    data: z.instanceof(Uint8Array),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  }),
]);
export type ToNsfw = z.infer<typeof toNsfwSchema>;

const scoresSchema = z.object({
  Drawing: z.number(),
  Hentai: z.number(),
  Neutral: z.number(),
  Porn: z.number(),
  Sexy: z.number(),
});

export const fromNsfwSchema = z.discriminatedUnion('type', [
  /** The model is loaded (`version` says which), or could not be (`error`). */
  z.object({ type: z.literal('ready'), error: z.string().nullable(), version: z.string().optional() }),
  z.object({ type: z.literal('scores'), id: z.number().int().positive(), scores: scoresSchema }),
  z.object({ type: z.literal('failed'), id: z.number().int().positive(), message: z.string() }),
]);
export type FromNsfw = z.infer<typeof fromNsfwSchema>;
