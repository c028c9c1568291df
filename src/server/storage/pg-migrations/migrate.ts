import { z } from 'zod';
import { checkMigrations, NewerSchemaError } from '../../../shared/sqlite-migrate';
import type { Sql } from '../sql';
import type { PgMigration } from './pg-migration';

/** The pg_advisory_xact_lock key of schema migrations (any constant, the same in every build). */
export const MIGRATION_LOCK = 0x72736d69677;

/** A PostgreSQL database migrated by a newer build: this one must not write to it. */
export class NewerPgSchemaError extends NewerSchemaError {
  constructor(found: number, supported: number) {
    super(found, supported);
    this.message =
      `PostgreSQL schema version ${found} is newer than this build supports (${supported}); ` +
      'update every Reelsync service process that uses this database';
  }
}

export const CREATE_SCHEMA_MIGRATIONS =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)';

/**
 * Applies the pending migrations, each in its own transaction with its schema_migrations row. Every transaction first
 * takes a transaction-scoped advisory lock, so processes starting together apply each migration once: the second waits,
 * then finds it recorded. Refuses a database whose schema is newer than `migrations`. Returns the versions applied.
 */
export async function migratePg(sql: Sql, migrations: readonly PgMigration[]): Promise<number[]> {
  if (sql.dialect !== 'postgres') throw new Error('migratePg runs PostgreSQL migrations on a PostgreSQL Sql');
  checkMigrations(migrations);
  const applied: number[] = [];
  for (;;) {
    const version = await sql.transaction(async (tx) => {
      await tx.run(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await tx.run(CREATE_SCHEMA_MIGRATIONS);
      const current = z
        .object({ v: z.number().int() })
        .parse(await tx.get('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations')).v;
      if (current > migrations.length) throw new NewerPgSchemaError(current, migrations.length);
      const next = migrations[current];
      if (!next) return null;
      // An empty step is a number recorded for a change the other engine has (a no-op here).
      if (next.up.trim() !== '') await tx.run(next.up);
      await tx.run(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        next.version,
        next.name,
        Date.now(),
      );
      return next.version;
    });
    if (version === null) return applied;
    applied.push(version);
  }
}
