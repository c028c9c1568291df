import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../../../../test/helpers/postgres';
import { openPgSql } from '../open-pg-sql';
import { PgSql } from '../pg-sql';
import { pgMigrations } from '.';
import { migratePg, NewerPgSchemaError } from './migrate';

const versions = async (sql: PgSql): Promise<number[]> =>
  z
    .array(z.object({ version: z.number() }))
    .parse(await sql.all('SELECT version FROM schema_migrations ORDER BY version'))
    .map((r) => r.version);

describe.skipIf(skipPostgresTests)('PostgreSQL schema migrations', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server.stop());

  it('migrates a new database once; opening it again applies nothing', async () => {
    const url = await server.createDatabase();
    const first = await openPgSql(url);
    expect(await versions(first)).toEqual(pgMigrations.map((m) => m.version));
    await first.close();
    const again = new PgSql(url);
    try {
      expect(await migratePg(again, pgMigrations)).toEqual([]);
      expect(await again.get('SELECT COUNT(*) AS n FROM accounts')).toEqual({ n: 0 });
    } finally {
      await again.close();
    }
  });

  it('applies each migration once when two processes migrate the same database at the same moment', async () => {
    const url = await server.createDatabase();
    const [a, b] = [new PgSql(url), new PgSql(url)];
    try {
      const [byA, byB] = await Promise.all([migratePg(a, pgMigrations), migratePg(b, pgMigrations)]);
      expect([...byA, ...byB].sort((x, y) => x - y)).toEqual(pgMigrations.map((m) => m.version));
      expect(await versions(a)).toEqual(pgMigrations.map((m) => m.version));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('rolls a failing migration back whole, keeping the ones before it', async () => {
    const url = await server.createDatabase();
    const sql = new PgSql(url);
    try {
      const broken = [
        { version: 1, name: 'one', up: 'CREATE TABLE one (n BIGINT)' },
        { version: 2, name: 'two', up: 'CREATE TABLE two (n BIGINT); INSERT INTO two VALUES (1 / 0)' },
      ];
      await expect(migratePg(sql, broken)).rejects.toThrow(/division by zero/);
      expect(await versions(sql)).toEqual([1]);
      expect(await sql.get("SELECT to_regclass('two') AS t")).toEqual({ t: null });
    } finally {
      await sql.close();
    }
  });

  it('refuses a database migrated by a newer build and leaves it as it is', async () => {
    const url = await server.createDatabase();
    const sql = await openPgSql(url);
    const newer = pgMigrations.length + 1;
    await sql.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 0)", newer);
    await sql.close();
    const err: unknown = await openPgSql(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NewerPgSchemaError);
    expect(String(err)).toMatch(`version ${newer} is newer than this build supports (${pgMigrations.length})`);
    const check = new PgSql(url);
    try {
      expect((await versions(check)).at(-1)).toBe(newer);
    } finally {
      await check.close();
    }
  });

  it('refuses a URL that is not postgres:// without echoing it', async () => {
    const err: unknown = await openPgSql('mysql://editor:s3cret-pw@db/library').catch((e: unknown) => e);
    expect(String(err)).toMatch(/database URL: expected postgres:\/\//);
    expect(String(err)).not.toContain('s3cret');
  });
});
