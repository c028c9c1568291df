import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * What the library browser shows and sorts by, read once at validation (ffprobe) and from the capture metadata:
 * NULL for files examined before, or rejected before probing.
 */
export const m007FileMedia: Migration = {
  version: 7,
  name: 'file-media',
  up: `
    ALTER TABLE files ADD COLUMN duration REAL;
    ALTER TABLE files ADD COLUMN width INTEGER;
    ALTER TABLE files ADD COLUMN height INTEGER;
    ALTER TABLE files ADD COLUMN fps REAL;
    ALTER TABLE files ADD COLUMN codec TEXT;
    ALTER TABLE files ADD COLUMN camera TEXT;
    ALTER TABLE files ADD COLUMN taken_at TEXT;
    CREATE INDEX files_codec ON files (codec);
  `,
};
