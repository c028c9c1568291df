import { z } from 'zod';

export const connectivityChannels = {
  /** Whether the library service answered its last probe; the clips library works either way. */
  'library:connectivity': {
    req: z.object({}).strict(),
    res: z.object({
      configured: z.boolean(),
      online: z.boolean(),
      checkedAt: z.number().int().nullable(),
      error: z.string().nullable(),
    }),
  },
} as const;

export const connectivityEvents = {
  'library:connectivity': z.object({ online: z.boolean(), checkedAt: z.number().int(), error: z.string().nullable() }),
} as const;
