import { z } from 'zod';

/** Messages between the download thread (download-worker.ts) and the main thread (download-thread.ts). */
export const startMessage = z.object({
  type: z.literal('start'),
  id: z.number().int(),
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  idleTimeoutMs: z.number().int().positive(),
  ca: z.string().optional(),
  partPath: z.string(),
  offset: z.number().int().nonnegative(),
  expectedTotal: z.number().int().nonnegative().nullable(),
});
export const abortMessage = z.object({ type: z.literal('abort'), id: z.number().int() });
export const toWorker = z.discriminatedUnion('type', [startMessage, abortMessage]);
export type StartMessage = z.infer<typeof startMessage>;

const verdict = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('body'),
    start: z.number(),
    total: z.number().nullable(),
    fileName: z.string().nullable(),
    contentType: z.string(),
  }),
  z.object({ type: z.literal('failure') }),
  z.object({ type: z.literal('restart'), reason: z.string() }),
  z.object({ type: z.literal('unexpected-status'), status: z.number() }),
  z.object({ type: z.literal('bad-content-range') }),
]);
const head = z.object({ status: z.number(), headers: z.record(z.string(), z.string()) });

export const fromWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('head'), id: z.number(), verdict }),
  z.object({ type: z.literal('bytes'), id: z.number(), n: z.number() }),
  z.object({ type: z.literal('done'), id: z.number(), verdict, head, bytes: z.number(), text: z.string().nullable() }),
  z.object({ type: z.literal('error'), id: z.number(), message: z.string(), code: z.string().optional() }),
]);
export type FromWorker = z.infer<typeof fromWorker>;
