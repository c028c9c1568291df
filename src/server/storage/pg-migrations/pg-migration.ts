/**
 * One numbered step of the PostgreSQL schema, applied in its own transaction (DDL is transactional in PostgreSQL).
 * A change to the SQLite schema (../migrations) lands with its twin here; pg-drift.test.ts fails the suite otherwise.
 */
export interface PgMigration {
  /** 1, 2, 3... contiguous; never edit a migration that has shipped. */
  version: number;
  name: string;
  /** Statements separated by `;`, with no `?` placeholders. */
  up: string;
}
