import { z } from 'zod';

/**
 * Messages between the app and the library service it supervises, over the fork's IPC channel (Electron's
 * utilityProcess parentPort, or a Node child_process channel). Both sides validate what they receive.
 */
export const toServiceSchema = z.discriminatedUnion('type', [
  /** Create a key (and the account if new); `credits` in USD sets the balance. Answered by key-created or failed. */
  z.object({
    type: z.literal('create-key'),
    id: z.number().int().positive(),
    account: z.string().min(1).max(200),
    interface: z.enum(['library', 'datalake']),
    credits: z.number().nonnegative().max(1e9).optional(),
  }),
  /** Drain and exit (the graceful first step of a stop). */
  z.object({ type: z.literal('stop') }),
]);
export type ToService = z.infer<typeof toServiceSchema>;

export const fromServiceSchema = z.discriminatedUnion('type', [
  /** Listening: the first message of every start. */
  z.object({ type: z.literal('ready'), url: z.url(), port: z.number().int().min(1).max(65535), pid: z.number().int() }),
  z.object({ type: z.literal('key-created'), id: z.number().int(), key: z.string().min(1) }),
  z.object({ type: z.literal('failed'), id: z.number().int(), message: z.string() }),
]);
export type FromService = z.infer<typeof fromServiceSchema>;
