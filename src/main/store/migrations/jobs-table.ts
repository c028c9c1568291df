/**
 * SQL rebuilding the `jobs` table to admit `kinds` (SQLite cannot alter a CHECK): rows and indexes carried over.
 * Migrations 003 and 010 run it; its text must not change, or their effect would.
 */
export function rebuildJobsTable(kinds: readonly string[]): string {
  return `
    CREATE TABLE jobs_new (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN (${kinds.map((k) => `'${k}'`).join(', ')})),
      target TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'active', 'done', 'failed', 'cancelled')),
      paused INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 0,
      retry_after INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    INSERT INTO jobs_new (id, kind, target, state, paused, attempts, retry_after, last_error, created_at, updated_at)
      SELECT id, kind, target, state, paused, attempts, retry_after, last_error, created_at, updated_at FROM jobs;
    DROP TABLE jobs;
    ALTER TABLE jobs_new RENAME TO jobs;
    CREATE UNIQUE INDEX jobs_open ON jobs(kind, target) WHERE state IN ('queued', 'active');
    CREATE INDEX jobs_runnable ON jobs(state, kind, retry_after);
  `;
}
