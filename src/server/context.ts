import type { Logger } from 'pino';
import type { Accounts } from './accounts/accounts';
import type { Billing } from './accounts/billing';
import type { ServiceConfig } from './config';
import type { JobQueue } from './jobs/job-queue';
import type { Folders } from './library/folders';
import type { Videos } from './library/videos';
import type { RateLimiter } from './limits/rate-limiter';
import type { SegmentSearch } from './search/search-pool';
import type { SemanticSlot } from './semantic/semantic-slot';
import type { LocalBlobStore } from './storage/blob-store';
import type { Db } from './storage/db';

/** Everything a route or worker needs, built once by the service's composition root. */
export interface ServiceContext {
  db: Db;
  dataDir: string;
  tmpDir: string;
  config: ServiceConfig;
  log: Logger;
  blobs: LocalBlobStore;
  accounts: Accounts;
  billing: Billing;
  folders: Folders;
  videos: Videos;
  jobs: JobQueue;
  limits: { search: RateLimiter; upload: RateLimiter; download: RateLimiter };
  /** Ranks segments off the HTTP thread (search-pool.ts). */
  search: SegmentSearch;
  /** The CLIP-class model: download, keyframe and query embeddings (semantic-slot.ts). */
  semantic: SemanticSlot;
}

export function bucketOf(accountId: number): string {
  return `reelsync-${accountId}`;
}
