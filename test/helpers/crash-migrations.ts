import type { Migration } from '../../src/shared/sqlite-migrate';

/** Two migrations; the second writes a table and rows, then calls `midway` before it can finish. */
export function migrationsForCrashTest(midway: () => void): Migration[] {
  return [
    { version: 1, name: 'base', up: 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT;' },
    {
      version: 2,
      name: 'half-done',
      up: (db) => {
        db.exec('CREATE TABLE extra (id INTEGER PRIMARY KEY) STRICT;');
        db.exec("ALTER TABLE items ADD COLUMN note TEXT NOT NULL DEFAULT '';");
        db.exec(
          'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO extra (id) SELECT i FROM n;',
        );
        midway();
      },
    },
  ];
}
