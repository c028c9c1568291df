import { pg001Library } from './001-library';
import { pg002SegmentSearch } from './002-segment-search';
import type { PgMigration } from './pg-migration';

/** The service's PostgreSQL migrations, in order. Append only. */
export const pgMigrations: readonly PgMigration[] = [pg001Library, pg002SegmentSearch];
