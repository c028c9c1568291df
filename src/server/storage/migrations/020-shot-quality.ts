import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Each segment's picture quality, 0..1 sharpness x exposure of its keyframe (indexer/analyzers/shot-quality.ts), which
 * search uses to order hits that match equally well. NULL for segments indexed before: neutral in that order.
 */
export const m020ShotQuality: Migration = {
  version: 20,
  name: 'shot-quality',
  up: 'ALTER TABLE segments ADD COLUMN shot_quality REAL',
};
