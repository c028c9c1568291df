import type { SegmentSearch } from '../search/workers/search-pool';
import type { SemanticSlot } from './semantic-slot';

/**
 * Segment search with the semantic slot: a search over what segments show (field "all") carries the query's
 * embedding to the worker, which fuses it with the keyword ranking (semantic-rank.ts). Without a ready model, or for a
 * transcript or caption search, the request goes through unchanged.
 */
export function withSemantic(inner: SegmentSearch, slot: SemanticSlot): SegmentSearch {
  return {
    async search(request) {
      if (request.field !== 'all' || !request.text.trim()) return inner.search(request);
      const vector = await slot.queryVector(request.text);
      if (!vector) return inner.search(request);
      const { model, similarityFloor: floor, similarityCeiling: ceiling } = slot.config;
      return inner.search({ ...request, semantic: { model, vector: Array.from(vector), floor, ceiling } });
    },
  };
}
