import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Claims on resumable upload sessions (dl_videos rows): the request writing a chunk, finalizing or expiring a session
 * names itself in `claimed_by` until `claim_until` (ms), so two requests, on any API replica, never write one session
 * at once; a claim left by a process that died lapses at `claim_until`.
 */
export const m014UploadSessionClaims: Migration = {
  version: 14,
  name: 'upload-session-claims',
  up: `
    ALTER TABLE dl_videos ADD COLUMN claimed_by TEXT;
    ALTER TABLE dl_videos ADD COLUMN claim_until INTEGER;
  `,
};
