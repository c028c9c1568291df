import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Sync engine state. Work lives in rows:
 * - watch_folders: what to watch and where it goes in the library;
 * - files: every file seen under a watch folder, with the last size/mtime observed and its content hash;
 * - contents: one row per distinct content hash (the identity that gets uploaded once);
 * - jobs: the persistent queue (examine a file, upload a content, poll its indexing status).
 */
export const m002Sync: Migration = {
  version: 2,
  name: 'sync',
  up: `
    CREATE TABLE watch_folders (
      id INTEGER PRIMARY KEY,
      path TEXT NOT NULL UNIQUE,
      folder_id INTEGER,
      folder_name TEXT,
      tags TEXT NOT NULL DEFAULT '[]',
      ignore TEXT NOT NULL DEFAULT '[]',
      polling TEXT NOT NULL DEFAULT 'auto' CHECK (polling IN ('auto', 'on', 'off')),
      created_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE contents (
      hash TEXT PRIMARY KEY,
      size INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'uploading', 'indexing', 'indexed', 'index_failed', 'failed', 'cancelled')),
      video_no TEXT,
      found_existing INTEGER NOT NULL DEFAULT 0,
      folder_id INTEGER,
      tags TEXT NOT NULL DEFAULT '[]',
      meta TEXT NOT NULL DEFAULT '{}',
      reason TEXT,
      superseded_by TEXT,
      progress INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX contents_video_no ON contents(video_no);

    CREATE TABLE files (
      id INTEGER PRIMARY KEY,
      watch_id INTEGER NOT NULL REFERENCES watch_folders(id) ON DELETE CASCADE,
      path TEXT NOT NULL UNIQUE,
      size INTEGER NOT NULL,
      mtime_ms INTEGER NOT NULL,
      observed_at INTEGER NOT NULL,
      hashed_size INTEGER,
      hashed_mtime_ms INTEGER,
      hash TEXT,
      state TEXT NOT NULL CHECK (state IN ('pending', 'skipped', 'linked', 'deleted')),
      reason TEXT,
      paused INTEGER NOT NULL DEFAULT 0,
      seen_scan INTEGER NOT NULL DEFAULT 0,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX files_hash ON files(hash);
    CREATE INDEX files_watch ON files(watch_id, seen_scan);
    CREATE INDEX files_state ON files(state);

    CREATE TABLE jobs (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('examine', 'upload', 'poll')),
      target TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'active', 'done', 'failed', 'cancelled')),
      paused INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 0,
      retry_after INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX jobs_open ON jobs(kind, target) WHERE state IN ('queued', 'active');
    CREATE INDEX jobs_runnable ON jobs(state, kind, retry_after);
  `,
};
