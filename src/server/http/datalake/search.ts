import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRICES_MICRO_USD } from '../../../shared/api-types';
import type { Datalake } from '../../datalake/datalake';
import { DatalakeError, missing } from '../../datalake/errors';
import { RateLimiter } from '../../limits/rate-limiter';
import { parse } from './parse';

const searchBody = z
  .object({
    query: z.string().trim().min(1).max(1000),
    collection_id: z.string().max(100).optional(),
    video_ids: z.array(z.string().max(100)).min(1).max(100).optional(),
    top_k: z.number().int().min(1).max(200).default(10),
  })
  .strict();

/** Datalake search: the library's segment ranking over the account's datalake videos, 5 queries per second per user. */
export function registerSearch(app: FastifyInstance, dl: Datalake): void {
  const limiter = new RateLimiter(5, 1000);
  app.post('/search', async (request) => {
    const account = request.account;
    const body = parse(searchBody, request.body);
    const wait = limiter.take(`dl-search:${account.id}`);
    if (wait)
      throw new DatalakeError(429, 'rate_limited', 'more than 5 searches per second', { 'retry-after': String(wait) });
    let folderId: number | undefined;
    if (body.collection_id) {
      const collection = dl.collections.get(account.id, body.collection_id);
      if (!collection) throw missing('collection');
      folderId = collection.folder_id;
    }
    dl.ctx.billing.charge(account.id, PRICES_MICRO_USD.search, 'datalake search', body.collection_id);
    const filter = { accountId: account.id, folderId, videoNos: body.video_ids, tag: 'datalake' };
    const hits = await dl.ctx.search.search({ text: body.query, field: 'all', filter, limit: body.top_k });
    return {
      results: hits.map((h) => ({
        video_id: h.videoNo,
        collection_id: dl.videos.byId(h.videoNo)?.collection_id ?? null,
        start: h.start,
        end: h.end,
        score: h.score,
        caption: h.caption,
        transcript: h.transcript,
      })),
    };
  });
}
