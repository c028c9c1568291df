import { z } from 'zod';
import type { Db } from '../../common/sqlite';
import type { Sql } from './sql';
import { CREATE_SCHEMA_MIGRATIONS, MIGRATION_LOCK } from './pg-migrations/migrate';

/**
 * The two migration trees were numbered apart until SQLite 015 / PostgreSQL 011; now one number names one schema
 * change on both (migrations/index.ts, pg-migrations/index.ts). A database recorded at an old number is moved to the
 * new numbering before it migrates, so nothing is re-run or skipped:
 * - SQLite (PRAGMA user_version): versions 1-7 mean the same in both numberings. From version 8 the new numbering marks
 *   the file with PRAGMA application_id = SHARED_NUMBERING_MARK (migration 8 sets it); an unmarked file at 8 or more
 *   is old-numbered, and its version is mapped by SQLITE_OLD_TO_NEW.
 * - PostgreSQL (schema_migrations rows): an old-numbered database has `segment-search` at version 2 (1, `library`, is
 *   the same in both). Its rows move to PG_OLD_TO_NEW's numbers, and versions 2-7 (SQLite changes 001-library
 *   already holds) are recorded as no-ops.
 */
export const SHARED_NUMBERING_MARK = 0x52531701;

/** Old SQLite version -> new (1-7 are the same). */
const SQLITE_OLD_TO_NEW: Readonly<Record<number, number>> = {
  8: 9, // job-leases
  9: 10, // rate-limits
  10: 11, // datalake-claims
  11: 12, // embedding-versions
  12: 13, // faces-by-video
  13: 14, // upload-session-claims
  14: 15, // embed-claims
  15: 17, // model-fetch-leases
};

/** Old PostgreSQL version -> new. */
const PG_OLD_TO_NEW: Readonly<Record<number, number>> = {
  1: 1, // library
  2: 8, // segment-search
  3: 9, // job-leases
  4: 10, // rate-limits
  5: 11, // datalake-claims
  6: 12, // embedding-versions
  7: 13, // faces-by-video
  8: 14, // upload-session-claims
  9: 15, // embed-claims
  10: 16, // segment-search-counts
  11: 17, // model-fetch-leases
};

/** The new PostgreSQL numbers of the SQLite-only changes folded into 001-library, recorded as no-ops. */
const PG_IN_LIBRARY: readonly (readonly [number, string])[] = [
  [2, 'search-index'],
  [3, 'datalake'],
  [4, 'face-model'],
  [5, 'search-partitions'],
  [6, 'unindex-empty-captions'],
  [7, 'segment-embeddings'],
];

class OldNumberingError extends Error {
  constructor(engine: string, version: number) {
    super(
      `${engine} schema version ${version} is not one this build knows from the old numbering; ` +
        'update every Reelsync service process that uses this database',
    );
  }
}

/** Moves an old-numbered service SQLite file to the shared numbering (in one transaction); returns the old version. */
export function renumberSqlite(db: Db): number | null {
  const marked = Number(db.pragma('application_id', { simple: true })) === SHARED_NUMBERING_MARK;
  const version = Number(db.pragma('user_version', { simple: true }));
  if (marked || version < 8) return null;
  const next = SQLITE_OLD_TO_NEW[version];
  if (next === undefined) throw new OldNumberingError('SQLite', version);
  db.transaction(() => {
    db.pragma(`user_version = ${next}`);
    db.pragma(`application_id = ${SHARED_NUMBERING_MARK}`);
  })();
  return version;
}

const Rows = z.array(z.object({ version: z.number().int(), name: z.string() }));

/**
 * Moves an old-numbered service PostgreSQL database to the shared numbering, in one transaction under the migration
 * lock (processes starting together renumber once). Returns the old latest version, or null when there was nothing to
 * move.
 */
export async function renumberPg(sql: Sql): Promise<number | null> {
  return sql.transaction(async (tx) => {
    await tx.run(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.run(CREATE_SCHEMA_MIGRATIONS);
    const old = await tx.get("SELECT 1 AS old FROM schema_migrations WHERE version = 2 AND name = 'segment-search'");
    if (!old) return null;
    const rows = Rows.parse(await tx.all('SELECT version, name FROM schema_migrations ORDER BY version DESC'));
    // Highest first: every new number is at or above its old one, so a row never lands on one not yet moved.
    for (const row of rows) {
      const next = PG_OLD_TO_NEW[row.version];
      if (next === undefined) throw new OldNumberingError('PostgreSQL', row.version);
      if (next !== row.version)
        await tx.run('UPDATE schema_migrations SET version = ? WHERE version = ?', next, row.version);
    }
    for (const [version, name] of PG_IN_LIBRARY) {
      await tx.run(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        version,
        name,
        Date.now(),
      );
    }
    return rows[0]?.version ?? null;
  });
}
