import type { PgMigration } from './pg-migration';

/** Migration 13, the twin of SQLite's 013-faces-by-video: faces by video, for photo search and video deletes. */
export const pg013FacesByVideo: PgMigration = {
  version: 13,
  name: 'faces-by-video',
  up: `
    CREATE INDEX faces_video ON faces (video_id);
  `,
};
