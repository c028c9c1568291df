import { z } from 'zod';

/** The query's embedding as it crosses to a search worker (search-protocol.ts), with the model's calibration. */
export const semanticQuerySchema = z.object({
  model: z.string().min(1),
  vector: z.array(z.number()).min(1).max(4096),
  /** Cosines at or below floor score 0, at or above ceiling 1 (semantic-config.ts). */
  floor: z.number(),
  ceiling: z.number(),
});
export type SemanticQuery = z.infer<typeof semanticQuerySchema>;
