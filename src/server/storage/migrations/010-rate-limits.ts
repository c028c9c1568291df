import type { Migration } from '../../../shared/sqlite-migrate';

/**
 * Rate-limit windows shared by every API process on the database (limits/rate-limiter.ts): one row per key (account +
 * kind) holding the times of the hits in its sliding window (int32 milliseconds before `expires_at`). A write is a
 * compare-and-set on `version`, so replicas never lose each other's hits; `expires_at` (newest hit + window) lets a
 * sweep delete the rows of idle keys.
 */
export const m010RateLimits: Migration = {
  version: 10,
  name: 'rate-limits',
  up: `
    CREATE TABLE rate_limits (
      key TEXT PRIMARY KEY,
      hits BLOB NOT NULL,
      version INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX rate_limits_expiry ON rate_limits (expires_at);
  `,
};
