import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Stopping a watch folder is a state, not a delete: the folder's files (and their cascade) stay, so the library keeps
 * every file it holds and plays it from this computer; only new changes go unnoticed. `stopped_at` null = watching.
 */
export const m012StoppedWatchFolders: Migration = {
  version: 12,
  name: 'stopped-watch-folders',
  up: `ALTER TABLE watch_folders ADD COLUMN stopped_at INTEGER;`,
};
