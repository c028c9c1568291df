import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * A name for each clip (empty for clips saved before: the card falls back to the video's name). clips_fts gains the
 * name column: an FTS5 table cannot add a column, so it and its triggers are recreated and rebuilt from clips.
 */
export const m005ClipName: Migration = {
  version: 5,
  name: 'clip-name',
  up: `
    ALTER TABLE clips ADD COLUMN name TEXT NOT NULL DEFAULT '';

    DROP TRIGGER clips_ai;
    DROP TRIGGER clips_ad;
    DROP TRIGGER clips_au;
    DROP TABLE clips_fts;
    CREATE VIRTUAL TABLE clips_fts USING fts5(
      name, text, notes, tags, query, video_name,
      content = 'clips', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER clips_ai AFTER INSERT ON clips BEGIN
      INSERT INTO clips_fts (rowid, name, text, notes, tags, query, video_name) VALUES (new.id, new.name, new.text, new.notes, new.tags, new.query, new.video_name);
    END;
    CREATE TRIGGER clips_ad AFTER DELETE ON clips BEGIN
      INSERT INTO clips_fts (clips_fts, rowid, name, text, notes, tags, query, video_name) VALUES ('delete', old.id, old.name, old.text, old.notes, old.tags, old.query, old.video_name);
    END;
    CREATE TRIGGER clips_au AFTER UPDATE OF name, text, notes, tags, query, video_name ON clips BEGIN
      INSERT INTO clips_fts (clips_fts, rowid, name, text, notes, tags, query, video_name) VALUES ('delete', old.id, old.name, old.text, old.notes, old.tags, old.query, old.video_name);
      INSERT INTO clips_fts (rowid, name, text, notes, tags, query, video_name) VALUES (new.id, new.name, new.text, new.notes, new.tags, new.query, new.video_name);
    END;
    INSERT INTO clips_fts (clips_fts) VALUES ('rebuild');
  `,
};
