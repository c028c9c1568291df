import type { Migration } from '../../../shared/sqlite-migrate';
import { rebuildJobsTable } from './jobs-table';

/**
 * Library features: downloads, clips, the keyframe thumbnail cache and the last search results.
 * - jobs is rebuilt to admit the 'download' and 'clip' kinds (SQLite cannot alter a CHECK); rows and indexes carried over;
 * - downloads: one row per requested resource (state, bytes so far, total, quoted cost, final file);
 * - clips: saved clips with their source, range, the query that found them, text, tags, notes; clips_fts indexes the
 *   text columns (external content, kept in step by triggers);
 * - thumbnails: the on-disk keyframe cache's index (size, last use) for LRU eviction;
 * - search_results: the last searches and their hits, browsable offline.
 */
export const m003Library: Migration = {
  version: 3,
  name: 'library',
  up: `
    ${rebuildJobsTable(['examine', 'upload', 'poll', 'download', 'clip'])}

    CREATE TABLE downloads (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('video', 'keyframe', 'image')),
      bucket TEXT NOT NULL,
      blob TEXT NOT NULL,
      video_no TEXT,
      dest_dir TEXT NOT NULL,
      file_name TEXT,
      path TEXT,
      state TEXT NOT NULL CHECK (state IN ('queued', 'downloading', 'done', 'failed', 'gone', 'cancelled')),
      bytes INTEGER NOT NULL DEFAULT 0,
      total INTEGER,
      quoted_bytes INTEGER,
      quoted_micro_usd INTEGER,
      restarts INTEGER NOT NULL DEFAULT 0,
      resumes INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX downloads_state ON downloads(state);
    CREATE INDEX downloads_video ON downloads(video_no, state);

    CREATE TABLE clips (
      id INTEGER PRIMARY KEY,
      video_no TEXT NOT NULL,
      video_name TEXT NOT NULL DEFAULT '',
      source_path TEXT,
      download_id INTEGER REFERENCES downloads(id) ON DELETE SET NULL,
      start_s REAL NOT NULL,
      end_s REAL NOT NULL,
      handles_s REAL NOT NULL DEFAULT 0,
      mode TEXT NOT NULL CHECK (mode IN ('accurate', 'copy')),
      format TEXT NOT NULL CHECK (format IN ('mp4', 'mov', 'mkv')),
      out_dir TEXT NOT NULL,
      out_name TEXT,
      path TEXT,
      state TEXT NOT NULL CHECK (state IN ('queued', 'downloading', 'cutting', 'ready', 'failed')),
      error TEXT,
      duration_s REAL,
      fps REAL,
      width INTEGER,
      height INTEGER,
      query TEXT NOT NULL DEFAULT '',
      search_type TEXT,
      text TEXT NOT NULL DEFAULT '',
      score REAL,
      video_bucket TEXT,
      video_blob TEXT,
      keyframe_bucket TEXT,
      keyframe_blob TEXT,
      thumbnail_path TEXT,
      tags TEXT NOT NULL DEFAULT '[]',
      notes TEXT NOT NULL DEFAULT '',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX clips_video ON clips(video_no);
    CREATE INDEX clips_created ON clips(created_at);

    CREATE VIRTUAL TABLE clips_fts USING fts5(
      text, notes, tags, query, video_name,
      content = 'clips', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER clips_ai AFTER INSERT ON clips BEGIN
      INSERT INTO clips_fts (rowid, text, notes, tags, query, video_name) VALUES (new.id, new.text, new.notes, new.tags, new.query, new.video_name);
    END;
    CREATE TRIGGER clips_ad AFTER DELETE ON clips BEGIN
      INSERT INTO clips_fts (clips_fts, rowid, text, notes, tags, query, video_name) VALUES ('delete', old.id, old.text, old.notes, old.tags, old.query, old.video_name);
    END;
    CREATE TRIGGER clips_au AFTER UPDATE OF text, notes, tags, query, video_name ON clips BEGIN
      INSERT INTO clips_fts (clips_fts, rowid, text, notes, tags, query, video_name) VALUES ('delete', old.id, old.text, old.notes, old.tags, old.query, old.video_name);
      INSERT INTO clips_fts (rowid, text, notes, tags, query, video_name) VALUES (new.id, new.text, new.notes, new.tags, new.query, new.video_name);
    END;

    CREATE TABLE thumbnails (
      key TEXT PRIMARY KEY,
      file TEXT NOT NULL,
      size INTEGER NOT NULL,
      last_used INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX thumbnails_lru ON thumbnails(last_used);

    CREATE TABLE search_results (
      id INTEGER PRIMARY KEY,
      query TEXT NOT NULL,
      search_type TEXT NOT NULL,
      request TEXT NOT NULL,
      hits TEXT NOT NULL,
      at INTEGER NOT NULL
    ) STRICT;
  `,
};
