import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * One row per finished upload attempt: what was sent (path, content hash, bytes), how long it took, and how it ended
 * ('uploaded', 'found' when the library already held the content, 'retrying' when the attempt failed and another
 * follows, 'failed' when no other follows). Kept apart from contents, whose state only says where a content is now.
 */
export const m006UploadHistory: Migration = {
  version: 6,
  name: 'upload-history',
  up: `
    CREATE TABLE upload_history (
      id INTEGER PRIMARY KEY,
      hash TEXT NOT NULL,
      path TEXT NOT NULL,
      bytes INTEGER NOT NULL CHECK (bytes >= 0),
      ms INTEGER NOT NULL CHECK (ms >= 0),
      result TEXT NOT NULL CHECK (result IN ('uploaded', 'found', 'retrying', 'failed')),
      error TEXT,
      video_no TEXT,
      finished_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX upload_history_finished ON upload_history(finished_at DESC, id DESC);
    CREATE INDEX upload_history_result ON upload_history(result);
  `,
};
