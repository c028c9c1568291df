import { beforeAll, describe, expect, it } from 'vitest';
import { skipPostgresTests } from '../../../../test/helpers/postgres';
import { seedLibrary, useBothDatabases, type Seeded, type SeedVideo } from '../../../../test/helpers/search-engines';
import { searchSegmentsPg } from '../pg/pg-segment-search';
import { parseQuery } from '../query/query-text';
import { searchSegments } from '../sqlite/search-segments';
import type { SegmentHit } from '../segment-types';

/**
 * Ties broken by shot quality (issue 30 item 3), on both engines: segments that match a search alike (same words, same
 * label confidence) order by their keyframe's measured quality, sharp and well exposed first; a segment indexed before
 * quality was measured (NULL) sits at the neutral value, and the evidence's own confidence still comes first.
 */

const lighthouse = (name: string, shotQuality?: number, score = 0.8): SeedVideo => ({
  name,
  folder: 'Coast',
  segments: [
    {
      caption: 'A lighthouse on the coast',
      labels: [{ label: 'lighthouse', source: 'objects:centernet', score }],
      ...(shotQuality === undefined ? {} : { shotQuality }),
    },
  ],
});

// In an order that is neither their quality's nor its reverse: ids cannot decide it.
const LIBRARY: SeedVideo[] = [
  lighthouse('take-a.mp4', 0.21),
  lighthouse('take-b.mp4'),
  lighthouse('take-c.mp4', 0.72),
  lighthouse('take-d.mp4', 0.45),
  lighthouse('take-e.mp4'),
  lighthouse('take-f.mp4', 0.05, 0.95),
];

/** Measured best first, the unmeasured two (neutral, by id) between 0.45 and 0.21; the surer label before all. */
const EXPECTED = ['take-f.mp4', 'take-c.mp4', 'take-d.mp4', 'take-b.mp4', 'take-e.mp4', 'take-a.mp4'];

describe.skipIf(skipPostgresTests)('ties broken by shot quality, on SQLite and PostgreSQL', () => {
  const both = useBothDatabases();
  let lite: Seeded;
  let pg: Seeded;

  beforeAll(async () => {
    const { lite: liteSql, cache, pg: pgSql } = both();
    lite = await seedLibrary(liteSql, cache, 'editor', LIBRARY);
    pg = await seedLibrary(pgSql, undefined, 'editor', LIBRARY);
  });

  const names = (hits: SegmentHit[]) => hits.map((h) => h.videoName);

  it('orders equal matches by shot quality, the unmeasured as neutral, after the evidence, scores all apart', async () => {
    const query = parseQuery('lighthouse');
    const onLite = searchSegments(both().cache, query, 'all', { accountId: lite.accountId }, 10);
    const onPg = await searchSegmentsPg(both().pg, query, 'all', { accountId: pg.accountId }, 10);
    for (const hits of [onLite, onPg]) {
      expect(names(hits)).toEqual(EXPECTED);
      for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThan(hits[i - 1]!.score);
      // One score step apart at most: the match is the same, only the tie-break set them apart.
      expect(hits[1]!.score - hits[hits.length - 1]!.score).toBeLessThan(0.0001);
    }
  });
});
