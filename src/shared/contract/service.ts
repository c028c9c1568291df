import { z } from 'zod';

/**
 * The embedded library service as the app supervises it. `none`: this app runs no service of its own (a cloud
 * endpoint, or a service given by the caller). The others follow one supervised process: starting, running,
 * restarting after a death (attempt n, the next try at `nextAt`), crashed (gave up; "Restart service" tries again),
 * stopped (the app is quitting).
 */
export const serviceStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('none') }),
  z.object({ state: z.literal('starting'), attempt: z.number().int().nonnegative(), since: z.number().int() }),
  z.object({
    state: z.literal('running'),
    pid: z.number().int(),
    url: z.string(),
    since: z.number().int(),
    /** Restarts since the app started. */
    restarts: z.number().int().nonnegative(),
  }),
  z.object({
    state: z.literal('restarting'),
    attempt: z.number().int().positive(),
    nextAt: z.number().int(),
    reason: z.string(),
  }),
  z.object({ state: z.literal('crashed'), reason: z.string(), at: z.number().int(), logFile: z.string() }),
  z.object({ state: z.literal('stopped'), at: z.number().int() }),
]);
export type ServiceState = z.infer<typeof serviceStateSchema>;

export const serviceChannels = {
  /** The embedded service's state now. */
  'service:status': { req: z.object({}).strict(), res: serviceStateSchema },
  /** Restart the embedded service now (after a crash, or to skip the wait between attempts). */
  'service:restart': { req: z.object({}).strict(), res: serviceStateSchema },
} as const;

export const serviceEvents = {
  'service:state': serviceStateSchema,
} as const;
