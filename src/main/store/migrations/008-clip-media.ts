import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Whether a clip file has sound, probed when it is cut (1 or 0; NULL for clips cut before: probed again at export).
 * EDL audio events and FCPXML's hasAudio come from it.
 */
export const m008ClipMedia: Migration = {
  version: 8,
  name: 'clip-media',
  up: `ALTER TABLE clips ADD COLUMN has_audio INTEGER CHECK (has_audio IN (0, 1));`,
};
