import { PRICES_MICRO_USD } from '../../shared/api-types';
import type { Datalake } from '../datalake/datalake';
import { DatalakeError, missing } from '../datalake/errors';
import { RateLimiter } from '../limits/rate-limiter';

export interface DatalakeQuery {
  query: string;
  collection_id?: string | undefined;
  video_ids?: string[] | undefined;
  top_k: number;
}

export interface DatalakeSearchResult {
  video_id: string;
  collection_id: string | null;
  start: number;
  end: number;
  score: number;
  caption: string;
  transcript: string;
}

/** Datalake search: the library's segment ranking over the account's datalake videos, 5 queries per second per user. */
export class DatalakeSearch {
  private readonly limiter: RateLimiter;

  constructor(private readonly dl: Datalake) {
    this.limiter = new RateLimiter(dl.ctx.sql, 5, 1000);
  }

  async search(accountId: number, q: DatalakeQuery): Promise<{ results: DatalakeSearchResult[] }> {
    const { dl } = this;
    const wait = await this.limiter.take(`dl-search:${accountId}`);
    if (wait)
      throw new DatalakeError(429, 'rate_limited', 'more than 5 searches per second', { 'retry-after': String(wait) });
    let folderId: number | undefined;
    if (q.collection_id) {
      const collection = await dl.collections.get(accountId, q.collection_id);
      if (!collection) throw missing('collection');
      folderId = collection.folder_id;
    }
    await dl.ctx.billing.charge(accountId, PRICES_MICRO_USD.search, 'datalake search', q.collection_id);
    const filter = { accountId, folderId, videoNos: q.video_ids, tag: 'datalake' };
    const hits = await dl.ctx.search.search({ text: q.query, field: 'all', filter, limit: q.top_k });
    const collectionOf = await dl.videos.collectionsOf(hits.map((h) => h.videoNo));
    return {
      results: hits.map((h) => ({
        video_id: h.videoNo,
        collection_id: collectionOf.get(h.videoNo) ?? null,
        start: h.start,
        end: h.end,
        score: h.score,
        caption: h.caption,
        transcript: h.transcript,
      })),
    };
  }
}
