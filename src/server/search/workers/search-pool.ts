import type { Logger } from 'pino';
import { z } from 'zod';
import { hitSchema, type SearchRequest, type SearchWorkerData } from './search-protocol';
import type { SegmentHit } from '../segment-types';
import { workerEntry } from '../../../common/spawn-worker';
import { WorkerPool } from './worker-pool';

export interface SegmentSearch {
  search(request: SearchRequest): Promise<SegmentHit[]>;
}

/** A search worker module and the data it starts with (search-protocol.ts or pg/pg-search-pool.ts parses it). */
export interface SearchWorker {
  entry: URL;
  data: unknown;
}

export interface SearchPoolOptions {
  worker: SearchWorker;
  workers: number;
  log: Logger;
}

/**
 * SQLite's search worker (search-worker.ts): each opens the service database file read-only. `entry` replaces the
 * module (tests).
 */
export function sqliteSearchWorker(dbFile: string, entry?: URL): SearchWorker {
  const data: SearchWorkerData = { dbFile };
  return {
    entry:
      entry ??
      workerEntry(import.meta.url, { sibling: '../sqlite/search-worker.ts' }, { outPath: 'service/search-worker.js' }),
    data,
  };
}

/**
 * Segment searches on worker threads, each with a connection of its own: parsing the query, ranking and scoring are
 * CPU work that would otherwise hold the HTTP thread. SQLite's workers (sqliteSearchWorker) or PostgreSQL's
 * (pgSearchWorker).
 */
export class SearchPool extends WorkerPool<SearchRequest, SegmentHit[]> implements SegmentSearch {
  constructor(options: SearchPoolOptions) {
    super({
      name: 'search',
      entry: options.worker.entry,
      workers: options.workers,
      workerData: options.worker.data,
      result: z.array(hitSchema),
      log: options.log,
    });
  }

  search(request: SearchRequest): Promise<SegmentHit[]> {
    return this.run(request);
  }
}
