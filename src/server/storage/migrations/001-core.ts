import type { Migration } from '../../../shared/sqlite-migrate';

export const m001Core: Migration = {
  version: 1,
  name: 'core',
  up: `
    CREATE TABLE accounts (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      balance_micro INTEGER NOT NULL DEFAULT 0 CHECK (balance_micro >= 0),
      webhook_secret TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE api_keys (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      interface TEXT NOT NULL CHECK (interface IN ('library', 'datalake')),
      key_hash TEXT NOT NULL UNIQUE,
      key_hint TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      revoked_at INTEGER
    ) STRICT;

    CREATE TABLE ledger (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      amount_micro INTEGER NOT NULL,
      reason TEXT NOT NULL,
      ref TEXT,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX ledger_account ON ledger(account_id, created_at);

    CREATE TABLE folders (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      unique_id TEXT,
      is_default INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      UNIQUE (account_id, unique_id)
    ) STRICT;
    CREATE UNIQUE INDEX folders_one_default ON folders(account_id) WHERE is_default = 1;

    CREATE TABLE videos (
      id INTEGER PRIMARY KEY,
      video_no TEXT NOT NULL UNIQUE,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      folder_id INTEGER NOT NULL REFERENCES folders(id),
      video_name TEXT NOT NULL,
      original_name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('UNPARSE', 'PARSE', 'FAIL')),
      progress REAL NOT NULL DEFAULT 0,
      fail_reason TEXT,
      bucket TEXT NOT NULL,
      blob TEXT,
      content_type TEXT NOT NULL,
      size INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      duration REAL,
      width INTEGER,
      height INTEGER,
      fps REAL,
      codec TEXT,
      datetime_taken TEXT,
      camera_model TEXT,
      latitude REAL,
      longitude REAL,
      callback TEXT,
      retain_original INTEGER NOT NULL DEFAULT 1,
      transcription_prompt TEXT,
      poster_blob TEXT,
      missing_engines TEXT NOT NULL DEFAULT '[]',
      created_at INTEGER NOT NULL,
      indexed_at INTEGER
    ) STRICT;
    CREATE INDEX videos_account ON videos(account_id, created_at);
    CREATE INDEX videos_account_status ON videos(account_id, status);

    CREATE TABLE video_tags (
      video_id INTEGER NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
      tag TEXT NOT NULL,
      position INTEGER NOT NULL,
      PRIMARY KEY (video_id, tag)
    ) STRICT;
    CREATE INDEX video_tags_tag ON video_tags(tag);

    CREATE TABLE segments (
      id INTEGER PRIMARY KEY,
      video_id INTEGER NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      start_time REAL NOT NULL,
      end_time REAL NOT NULL,
      keyframe_blob TEXT,
      caption TEXT NOT NULL DEFAULT '',
      transcript TEXT NOT NULL DEFAULT '',
      ocr_text TEXT NOT NULL DEFAULT '',
      labels TEXT NOT NULL DEFAULT '[]',
      caption_vector BLOB,
      UNIQUE (video_id, idx)
    ) STRICT;

    CREATE TABLE transcript_words (
      video_id INTEGER NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      word TEXT NOT NULL,
      start_time REAL NOT NULL,
      end_time REAL NOT NULL,
      PRIMARY KEY (video_id, idx)
    ) STRICT;

    CREATE TABLE faces (
      id INTEGER PRIMARY KEY,
      video_id INTEGER NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
      segment_idx INTEGER NOT NULL,
      descriptor BLOB NOT NULL,
      box TEXT NOT NULL,
      score REAL NOT NULL
    ) STRICT;

    CREATE TABLE jobs (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      ref TEXT NOT NULL,
      payload TEXT NOT NULL DEFAULT '{}',
      state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'dead')),
      attempts INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL,
      retry_after INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX jobs_ready ON jobs(kind, state, retry_after);
  `,
};
