import type { Logger } from 'pino';
import { z } from 'zod';
import { hitSchema, type SearchRequest, type SearchWorkerData } from './search-protocol';
import type { SegmentHit } from './search-segments';
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

const DEFAULT_ENTRY = new URL('./search-worker.ts', import.meta.url);

/** Segment searches on worker threads, each with its own read-only SQLite connection (search-worker.ts). */
export class SearchPool extends WorkerPool<SearchRequest, SegmentHit[]> implements SegmentSearch {
  constructor(options: SearchPoolOptions) {
    const workerData: SearchWorkerData = { dbFile: options.dbFile };
    super({ name: 'search', entry: options.entry ?? DEFAULT_ENTRY, workers: options.workers, workerData, result: z.array(hitSchema), log: options.log });
  }

  search(request: SearchRequest): Promise<SegmentHit[]> {
    return this.run(request);
  }
}
