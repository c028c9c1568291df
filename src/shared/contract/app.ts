import { z } from 'zod';

/** App-level channels: identity of the running app. */
export const appChannels = {
  'app:info': {
    req: z.object({}).strict(),
    res: z.object({
      name: z.literal('Reelsync'),
      version: z.string(),
      mode: z.enum(['electron', 'web', 'cli']),
      platform: z.string(),
      dataDir: z.string(),
      startedAt: z.number().int(),
    }),
  },
} as const;

export const appEvents = {
  'app:status': z.object({
    state: z.enum(['starting', 'ready', 'stopping']),
    at: z.number().int(),
  }),
} as const;
