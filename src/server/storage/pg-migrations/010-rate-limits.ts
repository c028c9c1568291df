import type { PgMigration } from './pg-migration';

/** SQLite's 010 (../migrations/010-rate-limits.ts) in PostgreSQL: the shared rate-limit windows. */
export const pg010RateLimits: PgMigration = {
  version: 10,
  name: 'rate-limits',
  up: `
    CREATE TABLE rate_limits (
      key TEXT PRIMARY KEY,
      hits BYTEA NOT NULL,
      version BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    );
    CREATE INDEX rate_limits_expiry ON rate_limits (expires_at);
  `,
};
