import type { PgMigration } from './pg-migration';

/** SQLite 013-upload-session-claims (008 here): which request holds a resumable upload session, and until when (ms). */
export const pg008UploadSessionClaims: PgMigration = {
  version: 8,
  name: 'upload-session-claims',
  up: `
    ALTER TABLE dl_videos ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_videos ADD COLUMN claim_until BIGINT;
  `,
};
