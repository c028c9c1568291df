import type { Logger } from 'pino';
import type { ServiceConfig } from './config';
import type { SemanticPart, SqliteParts } from './context';
import { PgSegmentSearch } from './search/pg/pg-segment-search';
import { SearchCache } from './search/search-cache';
import { SearchPool, type SegmentSearch } from './search/search-pool';
import { Thesaurus } from './search/thesaurus';
import { withSemantic } from './semantic/semantic-search';
import { SemanticSlot } from './semantic/semantic-slot';
import type { BlobStore } from './storage/blob-store';
import { serviceDbFile } from './storage/db';
import type { ServiceDatabase } from './storage/open-service-sql';

/** Segment search and the semantic slot as the service's engine has them, with their start and stop. */
export interface ServiceSearch {
  search: SegmentSearch;
  semantic: SemanticPart;
  sqlite?: SqliteParts;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * SQLite: FTS5 ranked by worker threads on their own read-only connections (SearchPool), fused with the semantic
 * slot. PostgreSQL: full text on `segment_search` (search/pg/), keywords only until the semantic slot moves onto Sql.
 */
export function openServiceSearch(
  database: ServiceDatabase,
  options: { dataDir: string; config: ServiceConfig; blobs: BlobStore; log: Logger },
): ServiceSearch {
  if (database.engine === 'postgres') {
    const thesaurus = new Thesaurus();
    thesaurus.expand('entity'); // reads WordNet's noun index now rather than during the first search
    return {
      search: new PgSegmentSearch(database.sql, thesaurus),
      semantic: semanticOffOnPostgres(options.config),
      start: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
  }
  const pool = new SearchPool({
    dbFile: serviceDbFile(options.dataDir),
    workers: options.config.search.workers,
    log: options.log.child({ module: 'search' }),
  });
  const semantic = new SemanticSlot({
    dataDir: options.dataDir,
    config: options.config.semantic,
    db: database.db,
    blobs: options.blobs,
    log: options.log.child({ module: 'semantic' }),
  });
  return {
    search: withSemantic(pool, semantic),
    semantic,
    sqlite: { db: database.db, searchCache: new SearchCache(database.db) },
    start: async () => {
      pool.start();
      await semantic.start();
    },
    close: async () => {
      await semantic.stop();
      await pool.close();
    },
  };
}

/** The slot's answers on PostgreSQL: its embeddings are stored in SQLite only so far. */
function semanticOffOnPostgres(config: ServiceConfig): SemanticPart {
  const state = {
    state: 'off',
    model: config.semantic.model,
    reason: 'semantic search: not yet on PostgreSQL',
  } as const;
  return { state: () => state, startDownload: () => state, embedPending: () => Promise.resolve() };
}
