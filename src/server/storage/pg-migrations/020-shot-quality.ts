import type { PgMigration } from './pg-migration';

/** The twin of ../migrations/020-shot-quality.ts: each segment's picture quality, NULL for segments indexed before. */
export const pg020ShotQuality: PgMigration = {
  version: 20,
  name: 'shot-quality',
  up: 'ALTER TABLE segments ADD COLUMN shot_quality DOUBLE PRECISION',
};
