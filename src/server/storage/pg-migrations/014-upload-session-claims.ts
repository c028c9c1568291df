import type { PgMigration } from './pg-migration';

/** Migration 14, the twin of SQLite's 014-upload-session-claims: which request holds a resumable upload session, and until when (ms). */
export const pg014UploadSessionClaims: PgMigration = {
  version: 14,
  name: 'upload-session-claims',
  up: `
    ALTER TABLE dl_videos ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_videos ADD COLUMN claim_until BIGINT;
  `,
};
