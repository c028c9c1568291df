import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Faces by video: photo search reads an account's faces a few videos at a time (search/face-search.ts), and deleting
 * or re-indexing a video deletes its faces; without this index each of these scanned every account's faces.
 */
export const m013FacesByVideo: Migration = {
  version: 13,
  name: 'faces-by-video',
  up: `
    CREATE INDEX faces_video ON faces (video_id);
  `,
};
