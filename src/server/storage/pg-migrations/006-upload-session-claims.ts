import type { PgMigration } from './pg-migration';

/** SQLite 011-upload-session-claims (006 here): which request holds a resumable upload session, and until when (ms). */
export const pg006UploadSessionClaims: PgMigration = {
  version: 6,
  name: 'upload-session-claims',
  up: `
    ALTER TABLE dl_videos ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_videos ADD COLUMN claim_until BIGINT;
  `,
};
