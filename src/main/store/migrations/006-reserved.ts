import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * BRANCH-ONLY placeholder: version 6 belongs to another branch's migration, and the runner wants contiguous versions.
 * The merge drops this file and lists that branch's 006 instead; it must never ship.
 */
export const m006Reserved: Migration = { version: 6, name: 'reserved', up: '' };
