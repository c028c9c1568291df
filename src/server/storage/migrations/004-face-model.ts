import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Faces record the model that described them, so descriptors of different models are never compared. Every face
 * stored before this migration came from human's faceres embedding (1024 float32): the default names it. The
 * indexer always writes the column, so the default only ever applies to those rows.
 */
export const m004FaceModel: Migration = {
  version: 4,
  name: 'face-model',
  up: `
    ALTER TABLE faces ADD COLUMN model TEXT NOT NULL DEFAULT 'human:faceres-1024';
  `,
};
