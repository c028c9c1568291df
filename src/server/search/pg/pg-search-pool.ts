import type { Logger } from 'pino';
import { z } from 'zod';
import { workerEntry } from '../../../common/spawn-worker';
import { hitSchema, type SearchRequest } from '../search-protocol';
import type { SegmentSearch } from '../search-pool';
import type { SegmentHit } from '../search-segments';
import { WorkerPool } from '../worker-pool';

export const pgSearchWorkerDataSchema = z.object({ url: z.string().min(1) });
export type PgSearchWorkerData = z.infer<typeof pgSearchWorkerDataSchema>;

export interface PgSearchPoolOptions {
  /** The service's PostgreSQL database (already migrated); each worker opens one connection to it. */
  url: string;
  workers: number;
  log: Logger;
}

/** The worker module: the TypeScript sibling from the sources, the built entry from out/. */
const entry = (): URL =>
  workerEntry(import.meta.url, { sibling: './pg-search-worker.ts' }, { outPath: 'service/pg-search-worker.js' });

/**
 * Segment searches on PostgreSQL on worker threads (pg-search-worker.ts), as SearchPool runs SQLite's: parsing the
 * query, bm25 over the candidates' tsvectors and the scoring are CPU work that would otherwise hold the HTTP thread.
 */
export class PgSearchPool extends WorkerPool<SearchRequest, SegmentHit[]> implements SegmentSearch {
  constructor(options: PgSearchPoolOptions) {
    const workerData: PgSearchWorkerData = { url: options.url };
    super({
      name: 'search',
      entry: entry(),
      workers: options.workers,
      workerData,
      result: z.array(hitSchema),
      log: options.log,
    });
  }

  search(request: SearchRequest): Promise<SegmentHit[]> {
    return this.run(request);
  }
}
