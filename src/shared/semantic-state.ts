import { z } from 'zod';
import { unreachable } from './errors';

/**
 * The semantic model slot as the service reports it (GET /semantic, a Reelsync extension) and the app shows it.
 * off: nothing downloaded; downloading: bytes so far of the whole model; ready: loaded on demand, `pending` keyframes
 * still to embed; failed: the last download or load failed, with why (a new download may be asked); not-offered: the
 * library service has no model slot (a cloud service answers GET /semantic 404 and ranks with its own model).
 */
export const semanticStateSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('off'),
    model: z.string(),
    reason: z.string(),
    /** The model's size as its host states it, once asked (null: not known yet, or the host cannot be reached). */
    expectedBytes: z.number().int().nonnegative().nullable().optional(),
  }),
  z.object({
    state: z.literal('downloading'),
    model: z.string(),
    receivedBytes: z.number().int().nonnegative(),
    totalBytes: z.number().int().nonnegative().nullable(),
    percent: z.number().min(0).max(100).nullable(),
    /** Bytes per second since this download started (bytes resumed from an earlier one not counted); null at first. */
    bytesPerSecond: z.number().nonnegative().nullable(),
    file: z.string(),
    /** Installing from this folder or archive (an editor's drive) rather than downloading from the host. */
    from: z.string().optional(),
  }),
  z.object({
    state: z.literal('ready'),
    model: z.string(),
    sizeBytes: z.number().int().nonnegative(),
    embeddedSegments: z.number().int().nonnegative(),
    pendingSegments: z.number().int().nonnegative(),
  }),
  z.object({ state: z.literal('failed'), model: z.string(), reason: z.string() }),
  z.object({ state: z.literal('not-offered') }),
]);
export type SemanticState = z.infer<typeof semanticStateSchema>;

/** One line for people: "semantic search: off (model not downloaded)", "semantic search: downloading 42%"... */
export function semanticStateLine(s: SemanticState): string {
  switch (s.state) {
    case 'off':
      return `semantic search: off (${s.reason})`;
    case 'downloading':
      return `semantic search: ${s.from ? 'installing' : 'downloading'} ${s.model}${s.percent === null ? '' : ` ${Math.floor(s.percent)}%`}`;
    case 'ready':
      return `semantic search: on (${s.model})`;
    case 'failed':
      return `semantic search: failed (${s.reason})`;
    case 'not-offered':
      return 'semantic search: up to the library service (no model to download here)';
    default:
      throw unreachable(s);
  }
}
