import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../../../test/helpers/postgres';
import { tempDir } from '../../../test/helpers/temp';
import { migrate, type Migration } from '../../shared/sqlite-migrate';
import { openServiceDb, serviceDbFile } from './db';
import { serviceMigrations } from './migrations';
import { openPgSql } from './open-pg-sql';
import { pgMigrations } from './pg-migrations';
import { migratePg } from './pg-migrations/migrate';
import type { PgMigration } from './pg-migrations/pg-migration';
import { PgSql } from './pg-sql';
import { SHARED_NUMBERING_MARK } from './schema-renumbering';

/** The shared numbering's latest version, which a renumbered file ends at. */
const LATEST = serviceMigrations.at(-1)!.version;

/**
 * Databases written by a build of the old numbering (SQLite 1-15, PostgreSQL 1-11) move to the shared one when the
 * service opens them: same schema as a new database, nothing run twice (an ALTER TABLE ADD COLUMN would fail), nothing
 * skipped (the schema would differ), rows kept. The old trees are the shipped steps without the no-ops, numbered 1, 2,
 * 3... as the old runners recorded them.
 */
const PG_ONLY = new Set([8, 16]);
const oldSqlite: Migration[] = serviceMigrations
  .filter((m) => !PG_ONLY.has(m.version))
  .map((m, i) => ({ ...m, version: i + 1 }));
const oldPg: PgMigration[] = pgMigrations.filter((m) => m.up !== '').map((m, i) => ({ ...m, version: i + 1 }));

const ACCOUNT = "INSERT INTO accounts (name, webhook_secret, created_at) VALUES ('old', 's', 1)";

describe('SQLite service database at an old version number', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => dir.cleanup());

  const schemaOf = (db: Database.Database): unknown =>
    db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();

  function newSchema(): unknown {
    const db = openServiceDb(join(dir.dir, 'new'));
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(LATEST);
      expect(db.pragma('application_id', { simple: true })).toBe(SHARED_NUMBERING_MARK);
      return schemaOf(db);
    } finally {
      db.close();
    }
  }

  it.each([
    ['the old latest', 15],
    ['an old middle version', 10],
    ['an old version before the trees parted', 7],
  ])('moves a file at %s (%i) to the shared numbering and migrates the rest once', (_what, oldVersion) => {
    const data = join(dir.dir, `old-${oldVersion}`);
    mkdirSync(data);
    const before = new Database(serviceDbFile(data));
    try {
      expect(migrate(before, oldSqlite.slice(0, oldVersion))).toHaveLength(oldVersion);
      before.prepare(ACCOUNT).run();
    } finally {
      before.close();
    }
    const db = openServiceDb(data);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(LATEST);
      expect(db.pragma('application_id', { simple: true })).toBe(SHARED_NUMBERING_MARK);
      expect(schemaOf(db)).toEqual(newSchema());
      expect(db.prepare('SELECT name FROM accounts').all()).toEqual([{ name: 'old' }]);
    } finally {
      db.close();
    }
    // Opened again: already shared-numbered, nothing moves.
    openServiceDb(data).close();
  });

  it('refuses an unmarked file past the old latest version, leaving it as it is', () => {
    const data = join(dir.dir, 'unknown');
    mkdirSync(data);
    const raw = new Database(serviceDbFile(data));
    raw.pragma('user_version = 16');
    raw.close();
    expect(() => openServiceDb(data)).toThrow(/SQLite schema version 16 is not one this build knows/);
    const check = new Database(serviceDbFile(data));
    expect(check.pragma('user_version', { simple: true })).toBe(16);
    check.close();
  });
});

const Versions = z.array(z.object({ version: z.number(), name: z.string() }));

describe.skipIf(skipPostgresTests)('PostgreSQL service database at an old version number', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server.stop());

  async function schemaOf(sql: PgSql): Promise<unknown> {
    return {
      columns: await sql.all(
        `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
         WHERE table_schema = 'public' ORDER BY table_name, column_name`,
      ),
      indexes: await sql.all("SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexdef"),
      triggers: await sql.all(
        'SELECT trigger_name, event_manipulation, event_object_table FROM information_schema.triggers ORDER BY 1, 2, 3',
      ),
    };
  }

  it.each([
    ['the old latest', 11],
    ['an old middle version', 5],
    ['the first version', 1],
  ])('moves a database at %s (%i) to the shared numbering and migrates the rest once', async (_what, oldVersion) => {
    const fresh = await openPgSql(await server.createDatabase());
    const expected = await schemaOf(fresh);
    await fresh.close();

    const url = await server.createDatabase();
    const before = new PgSql(url);
    try {
      expect(await migratePg(before, oldPg.slice(0, oldVersion))).toHaveLength(oldVersion);
      await before.run(ACCOUNT);
    } finally {
      await before.close();
    }
    const sql = await openPgSql(url);
    try {
      expect(Versions.parse(await sql.all('SELECT version, name FROM schema_migrations ORDER BY version'))).toEqual(
        pgMigrations.map((m) => ({ version: m.version, name: m.name })),
      );
      expect(await schemaOf(sql)).toEqual(expected);
      expect(await sql.all('SELECT name FROM accounts')).toEqual([{ name: 'old' }]);
    } finally {
      await sql.close();
    }
    // Opened again, and by two processes at once: nothing moves or runs.
    const [a, b] = await Promise.all([openPgSql(url), openPgSql(url)]);
    expect(await migratePg(a, pgMigrations)).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });
});
