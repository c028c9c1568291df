import type { Migration } from '../../../shared/sqlite-migrate';

export const m001Settings: Migration = {
  version: 1,
  name: 'settings',
  up: `
    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
  `,
};
