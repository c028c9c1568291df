import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Interface B (datalake): collections, datalake videos (linked to the library's videos row once ingested), operations,
 * webhook deliveries and safety output. Ids are public strings; rows of one account never answer another's key.
 */
export const m003Datalake: Migration = {
  version: 3,
  name: 'datalake',
  up: `
    CREATE TABLE dl_collections (
      id TEXT PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      safety_detector INTEGER NOT NULL CHECK (safety_detector IN (0, 1)),
      face_recognition INTEGER NOT NULL CHECK (face_recognition IN (0, 1)),
      folder_id INTEGER NOT NULL REFERENCES folders(id),
      state TEXT NOT NULL CHECK (state IN ('active', 'deleting')),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX dl_collections_account ON dl_collections(account_id, created_at);

    CREATE TABLE dl_videos (
      id TEXT PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      collection_id TEXT NOT NULL REFERENCES dl_collections(id),
      library_video_id INTEGER,
      status TEXT NOT NULL CHECK (status IN ('uploading', 'processing', 'ready', 'failed', 'cancelled', 'deleting')),
      source_type TEXT NOT NULL CHECK (source_type IN ('url', 'file', 'resumable', 'stream')),
      source_url TEXT,
      filename TEXT NOT NULL,
      content_type TEXT,
      upload_size INTEGER,
      fps REAL NOT NULL,
      metadata TEXT NOT NULL DEFAULT '{}',
      callback_url TEXT,
      idempotency_key TEXT,
      operation_id TEXT,
      stream_id TEXT,
      stream_offset REAL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, idempotency_key)
    ) STRICT;
    CREATE INDEX dl_videos_account ON dl_videos(account_id, created_at);
    CREATE INDEX dl_videos_stream ON dl_videos(stream_id, stream_offset);

    CREATE TABLE dl_streams (
      id TEXT PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      collection_id TEXT NOT NULL REFERENCES dl_collections(id),
      source_url TEXT NOT NULL,
      fps REAL NOT NULL,
      segment_seconds REAL NOT NULL,
      metadata TEXT NOT NULL DEFAULT '{}',
      status TEXT NOT NULL CHECK (status IN ('starting', 'live', 'ended', 'failed', 'stopped')),
      error_message TEXT,
      segments INTEGER NOT NULL DEFAULT 0,
      next_offset REAL NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX dl_streams_account ON dl_streams(account_id, created_at);
    CREATE INDEX dl_videos_collection ON dl_videos(collection_id);

    CREATE TABLE dl_operations (
      id TEXT PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('ingest', 'video_delete', 'collection_delete')),
      resource TEXT NOT NULL,
      idempotency_key TEXT,
      request_hash TEXT,
      callback_url TEXT,
      done INTEGER NOT NULL DEFAULT 0,
      cancelled INTEGER NOT NULL DEFAULT 0,
      stages TEXT NOT NULL,
      fractions TEXT NOT NULL DEFAULT '{}',
      error_code TEXT,
      error_message TEXT,
      charged_micro INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, idempotency_key)
    ) STRICT;
    CREATE INDEX dl_operations_active ON dl_operations(account_id, kind, done);
    CREATE INDEX dl_operations_resource ON dl_operations(resource);

    CREATE TABLE dl_deliveries (
      id TEXT PRIMARY KEY,
      operation_id TEXT NOT NULL REFERENCES dl_operations(id) ON DELETE CASCADE,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      url TEXT NOT NULL,
      payload TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('waiting', 'success', 'fail', 'dead')),
      attempt INTEGER NOT NULL DEFAULT 0,
      response_code INTEGER,
      message TEXT NOT NULL DEFAULT '',
      next_attempt_at INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX dl_deliveries_operation ON dl_deliveries(operation_id, created_at);

    CREATE TABLE dl_safety_frames (
      video_id TEXT NOT NULL,
      t REAL NOT NULL,
      unsafe REAL NOT NULL,
      scores TEXT NOT NULL,
      PRIMARY KEY (video_id, t)
    ) STRICT;

    CREATE TABLE dl_events (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      video_id TEXT NOT NULL,
      event_type TEXT NOT NULL,
      start_time REAL NOT NULL,
      end_time REAL NOT NULL,
      score REAL NOT NULL,
      description TEXT NOT NULL,
      detector_id TEXT NOT NULL,
      detector_version TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX dl_events_video ON dl_events(video_id, start_time, seq);

    CREATE TABLE dl_face_entities (
      video_id TEXT NOT NULL,
      entity_id TEXT NOT NULL,
      faces INTEGER NOT NULL,
      first_seen REAL NOT NULL,
      last_seen REAL NOT NULL,
      best_score REAL NOT NULL,
      PRIMARY KEY (video_id, entity_id)
    ) STRICT;
  `,
};
