import { expect } from 'vitest';
import type { SearchRequest } from '../../src/server/search/workers/search-protocol';
import type { SegmentSearch } from '../../src/server/search/workers/search-pool';
import type { SegmentHit } from '../../src/server/search/segment-types';

/**
 * A search pool's answers checked against its engine's own in this thread: two concurrent searches get exactly
 * `expected` (a caption vector crosses threads as a plain Uint8Array, so vectors are left out), another account's
 * search nothing; once closed, the pool refuses searches. Closes the pool.
 */
export async function expectPoolAnswers(
  pool: SegmentSearch & { close(): Promise<void> },
  request: SearchRequest,
  otherAccountId: number,
  expected: () => Promise<SegmentHit[]>,
): Promise<void> {
  try {
    const got = await Promise.all([
      pool.search(request),
      pool.search(request),
      pool.search({ ...request, filter: { accountId: otherAccountId } }),
    ]);
    const wanted = await expected();
    expect(wanted.length).toBe(request.limit);
    const plain = (hits: SegmentHit[]) => hits.map((h) => ({ ...h, captionVector: null }));
    expect(plain(got[0])).toEqual(plain(wanted));
    expect(plain(got[1])).toEqual(plain(wanted));
    expect(got[2]).toEqual([]);
  } finally {
    await pool.close();
  }
  await expect(pool.search({ ...request, limit: 1 })).rejects.toThrow(/closed/);
}
