import type { Logger } from 'pino';
import type { Accounts } from './accounts/accounts';
import type { Billing } from './accounts/billing';
import type { ServiceConfig } from './config';
import type { ServiceJobQueue } from './jobs/job-queue';
import type { Folders } from './library/folders';
import type { Videos } from './library/videos';
import type { VideoIndex } from './library/video-index';
import type { RateLimiter } from './limits/rate-limiter';
import type { SegmentSearch } from './search/workers/search-pool';
import type { BlobStore } from './storage/blob-store';
import type { SemanticSlot } from './semantic/semantic-slot';
import type { Sql } from './storage/sql';

/** What routes and the indexer ask of the semantic slot. */
export type SemanticPart = Pick<
  SemanticSlot,
  'state' | 'startDownload' | 'cancelDownload' | 'installFrom' | 'embedPending'
>;

/** Everything a route or worker needs, built once by the service's composition root. */
export interface ServiceContext {
  /** The database for every store: SQLite or PostgreSQL (storage/sql.ts). */
  sql: Sql;
  dataDir: string;
  tmpDir: string;
  config: ServiceConfig;
  log: Logger;
  blobs: BlobStore;
  accounts: Accounts;
  billing: Billing;
  /** What the indexer derived from each library video (segments, words, faces). */
  videoIndex: VideoIndex;
  folders: Folders;
  videos: Videos;
  jobs: ServiceJobQueue;
  limits: { search: RateLimiter; upload: RateLimiter; download: RateLimiter };
  /** Ranks segments: worker threads on SQLite (search-pool.ts), full text on PostgreSQL (search/pg/). */
  search: SegmentSearch;
  /** The CLIP-class model: download, keyframe and query embeddings (semantic-slot.ts). */
  semantic: SemanticPart;
}

export function bucketOf(accountId: number): string {
  return `reelsync-${accountId}`;
}
