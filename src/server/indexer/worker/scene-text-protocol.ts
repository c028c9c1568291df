import { z } from 'zod';

/**
 * Messages between a PaddleReader and its scene-text thread (scene-text-worker.ts). Both sides parse what they receive:
 * a message that does not match is a bug on the other side.
 */

export const toSceneTextSchema = z.discriminatedUnion('type', [
  /** Packed RGB pixels, width * height * 3 bytes (checked by the worker). */
  z.object({
    type: z.literal('read'),
    id: z.number().int().positive(),
    data: z.instanceof(Uint8Array),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  }),
]);
export type ToSceneText = z.infer<typeof toSceneTextSchema>;

const wordSchema = z.object({ text: z.string(), confidence: z.number() });

export const fromSceneTextSchema = z.discriminatedUnion('type', [
  /** The models are loaded (or could not be: `error`). */
  z.object({ type: z.literal('ready'), error: z.string().nullable() }),
  z.object({ type: z.literal('lines'), id: z.number().int().positive(), lines: z.array(z.array(wordSchema)) }),
  z.object({ type: z.literal('failed'), id: z.number().int().positive(), message: z.string() }),
]);
export type FromSceneText = z.infer<typeof fromSceneTextSchema>;
