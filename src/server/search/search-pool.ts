import type { Logger } from 'pino';
import { z } from 'zod';
import { hitSchema, type SearchRequest, type SearchWorkerData } from './search-protocol';
import type { SegmentHit } from './search-segments';
import { workerEntry } from '../../common/spawn-worker';
import { WorkerPool } from './worker-pool';

export interface SegmentSearch {
  search(request: SearchRequest): Promise<SegmentHit[]>;
}

export interface SearchPoolOptions {
  /** The service database file; each worker opens it read-only. */
  dbFile: string;
  workers: number;
  log: Logger;
  /** The worker module. Default: search-worker.ts beside this file. */
  entry?: URL;
}

/** The worker module: the TypeScript sibling from the sources, the built entry from out/. */
const defaultEntry = (): URL =>
  workerEntry(import.meta.url, { sibling: './search-worker.ts' }, { outPath: 'service/search-worker.js' });

/** Segment searches on worker threads, each with its own read-only SQLite connection (search-worker.ts). */
export class SearchPool extends WorkerPool<SearchRequest, SegmentHit[]> implements SegmentSearch {
  constructor(options: SearchPoolOptions) {
    const workerData: SearchWorkerData = { dbFile: options.dbFile };
    super({
      name: 'search',
      entry: options.entry ?? defaultEntry(),
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
