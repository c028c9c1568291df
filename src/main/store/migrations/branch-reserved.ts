import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * BRANCH-ONLY placeholders: versions 6 and 7 belong to other branches' migrations, and the runner wants contiguous
 * versions. The merge drops this file and lists those branches' 006 and 007 instead; it must never ship.
 */
export const m006Reserved: Migration = { version: 6, name: 'reserved', up: '' };
export const m007Reserved: Migration = { version: 7, name: 'reserved', up: '' };
