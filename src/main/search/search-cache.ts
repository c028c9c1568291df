import { z } from 'zod';
import type { lastResultsSchema } from '../../shared/contract/last-results';
import { searchHitSchema, type SearchHit } from '../../shared/contract/library';
import type { LibraryCacheStore } from '../store/library-cache-store';

export type LastResults = z.infer<typeof lastResultsSchema>;

/** The last searches and their hits, stored in the client database so that they stay browsable with no service. */
export class SearchCache {
  constructor(
    private readonly store: LibraryCacheStore,
    private readonly keep = 20,
  ) {}

  record(request: { query: string; type: string }, hits: SearchHit[], at = Date.now()): void {
    this.store.recordSearch(request.query, request.type, JSON.stringify(request), JSON.stringify(hits), at, this.keep);
  }

  last(): LastResults | null {
    const row = this.store.lastSearch();
    if (!row) return null;
    const hits = z.array(searchHitSchema).safeParse(JSON.parse(row.hits));
    return { query: row.query, type: row.search_type, at: row.at, hits: hits.success ? hits.data : [] };
  }
}
