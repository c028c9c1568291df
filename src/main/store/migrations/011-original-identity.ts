import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * The identity of each watched file as an editing system knows it (start timecode, rate, reel, camera clip name,
 * camera, sidecars), read with ffprobe and the sidecars beside it. Kept for the size and mtime it was read at: a file
 * that changes is read again. The whole identity is in `identity` (JSON, validated on read); the columns an export
 * or a query needs on their own are beside it.
 */
export const m011OriginalIdentity: Migration = {
  version: 11,
  name: 'original-identity',
  up: `
    CREATE TABLE file_identity (
      file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
      size INTEGER NOT NULL,
      mtime_ms INTEGER NOT NULL,
      start_timecode TEXT NOT NULL,
      rate TEXT NOT NULL,
      drop_frame INTEGER NOT NULL CHECK (drop_frame IN (0, 1)),
      timecode_source TEXT NOT NULL,
      reel TEXT,
      clip_name TEXT NOT NULL,
      camera_model TEXT,
      identity TEXT NOT NULL,
      read_at INTEGER NOT NULL
    ) STRICT;
  `,
};
