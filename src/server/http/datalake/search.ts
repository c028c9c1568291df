import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Datalake } from '../../datalake/datalake';
import { DatalakeSearch, type DatalakeSearchResult } from '../../search/datalake-search';
import { answer, datalakeRoute } from './route';

const searchBody = z
  .object({
    query: z.string().trim().min(1).max(1000),
    collection_id: z.string().max(100).optional(),
    video_ids: z.array(z.string().max(100)).min(1).max(100).optional(),
    top_k: z.number().int().min(1).max(200).default(10),
  })
  .strict();

export function registerSearch(app: FastifyInstance, dl: Datalake): void {
  const search = new DatalakeSearch(dl);
  datalakeRoute(app, {
    method: 'POST',
    url: '/search',
    body: searchBody,
    response: answer<{ results: DatalakeSearchResult[] }>(),
    handler: async ({ account, body }) => search.search(account.id, body),
  });
}
