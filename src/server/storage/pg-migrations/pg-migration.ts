/**
 * One numbered step of the PostgreSQL schema, applied in its own transaction (DDL is transactional in PostgreSQL).
 * A change to the SQLite schema (../migrations) lands with its twin here under the same version number; pg-drift.test.ts
 * fails the suite otherwise. A change one engine does not need keeps its number in both trees: the other records it as
 * a no-op (empty `up`).
 */
export interface PgMigration {
  /** 1, 2, 3... contiguous; never edit a migration that has shipped. */
  version: number;
  name: string;
  /** Statements separated by `;`, with no `?` placeholders; empty for a no-op. */
  up: string;
}
