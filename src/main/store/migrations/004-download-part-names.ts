import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Each download keeps the name of its part file: a random one for new downloads (a name others can predict lets them
 * plant a symlink there in a shared folder). Rows from before keep the name they had, so their part files still resume.
 */
export const m004DownloadPartNames: Migration = {
  version: 4,
  name: 'download-part-names',
  up: `
    ALTER TABLE downloads ADD COLUMN part_name TEXT;
    UPDATE downloads SET part_name = '.reelsync-download-' || id || '.part';
  `,
};
