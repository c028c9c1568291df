import { pg001Library } from './001-library';
import { pg002RateLimits } from './002-rate-limits';
import type { PgMigration } from './pg-migration';

/** The service's PostgreSQL migrations, in order. Append only. */
export const pgMigrations: readonly PgMigration[] = [pg001Library, pg002RateLimits];
