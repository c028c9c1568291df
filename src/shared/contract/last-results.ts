import { z } from 'zod';
import { searchHitSchema } from './library';

export const lastResultsSchema = z.object({
  query: z.string(),
  type: z.string(),
  at: z.number().int(),
  hits: z.array(searchHitSchema),
});

export const lastResultsChannels = {
  /** The most recent search and its hits as stored in the client database: browsable offline. */
  'search:last-results': { req: z.object({}).strict(), res: z.object({ results: lastResultsSchema.nullable() }) },
} as const;
