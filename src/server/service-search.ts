import type { Logger } from 'pino';
import type { ServiceConfig } from './config';
import type { SemanticPart } from './context';
import { pgSearchWorker } from './search/pg/pg-search-pool';
import { SearchPool, sqliteSearchWorker, type SegmentSearch } from './search/workers/search-pool';
import { withSemantic } from './semantic/semantic-search';
import { SemanticSlot } from './semantic/semantic-slot';
import type { BlobStore } from './storage/blob-store';
import { serviceDbFile } from './storage/db';
import type { ServiceDatabase } from './storage/open-service-sql';

/** Segment search and the semantic slot as the service's engine has them, with their start and stop. */
export interface ServiceSearch {
  search: SegmentSearch;
  semantic: SemanticPart;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * SQLite: FTS5 ranked by worker threads on their own read-only connections (SearchPool), fused with the semantic
 * slot. PostgreSQL: full text on `segment_search` (search/pg/) ranked by worker threads on their own connections
 * (SearchPool with pgSearchWorker), fused with the same slot (its vectors in PostgreSQL).
 */
export function openServiceSearch(
  database: ServiceDatabase,
  options: {
    dataDir: string;
    config: ServiceConfig;
    blobs: BlobStore;
    log: Logger;
    embedsKeyframes: boolean;
    /** A worker process answers no searches: its search threads are never started. */
    answersSearches: boolean;
  },
): ServiceSearch {
  const semantic = new SemanticSlot({
    dataDir: options.dataDir,
    config: options.config.semantic,
    sql: database.sql,
    blobs: options.blobs,
    log: options.log.child({ module: 'semantic' }),
    embedsKeyframes: options.embedsKeyframes,
    sharedDatabase: database.engine === 'postgres',
  });
  const workers = options.config.search.workers;
  const log = options.log.child({ module: 'search' });
  const worker =
    database.engine === 'postgres' ? pgSearchWorker(database.url) : sqliteSearchWorker(serviceDbFile(options.dataDir));
  const pool = new SearchPool({ worker, workers, log });
  return {
    search: withSemantic(pool, semantic),
    semantic,
    start: async () => {
      if (options.answersSearches) pool.start();
      await semantic.start();
    },
    close: async () => {
      await semantic.stop();
      await pool.close();
    },
  };
}
