import type { PgMigration } from './pg-migration';

/** SQLite 012-faces-by-video (007 here): faces by video, for photo search and video deletes. */
export const pg007FacesByVideo: PgMigration = {
  version: 7,
  name: 'faces-by-video',
  up: `
    CREATE INDEX faces_video ON faces (video_id);
  `,
};
