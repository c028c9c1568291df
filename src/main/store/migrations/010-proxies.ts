import type { Migration } from '../../../shared/sqlite-migrate';
import { rebuildJobsTable } from './jobs-table';

/**
 * Search proxies of camera originals the library refuses (codec, container, size):
 * - jobs is rebuilt to admit the 'proxy' kind (SQLite cannot alter a CHECK); rows and indexes carried over;
 * - proxies: one row per original content hash (SHA-256 of the camera original, the content row's key): where its
 *   H.264 proxy is in the cache, its size, how far making it got, the encoder and width used, and the library video
 *   it became. The file is deleted once indexed (unless kept), the row stays: videoNo -> original.
 */
export const m010Proxies: Migration = {
  version: 10,
  name: 'proxies',
  up: `
    ${rebuildJobsTable(['examine', 'upload', 'poll', 'download', 'clip', 'proxy'])}

    CREATE TABLE proxies (
      hash TEXT PRIMARY KEY,
      state TEXT NOT NULL CHECK (state IN ('making', 'ready', 'uploaded', 'removed', 'failed')),
      path TEXT NOT NULL,
      size INTEGER NOT NULL DEFAULT 0,
      proxy_sha256 TEXT,
      width INTEGER,
      encoder TEXT,
      progress REAL NOT NULL DEFAULT 0,
      video_no TEXT,
      error TEXT,
      created_at INTEGER NOT NULL,
      finished_at INTEGER
    ) STRICT;
    CREATE INDEX proxies_video ON proxies(video_no);
    CREATE INDEX proxies_finished ON proxies(state, finished_at);
  `,
};
