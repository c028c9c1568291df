import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../../../test/helpers/postgres';
import { tempDir } from '../../../test/helpers/temp';
import { openSqlite, type Db } from '../../common/sqlite';
import type { Migration } from '../../shared/sqlite-migrate';
import { serviceMigrations } from './migrations';
import { openPgSql } from './open-pg-sql';
import { SQLITE_ONLY_TABLES } from './pg-migrations/001-library';
import { PG_ONLY_TABLES } from './pg-migrations/008-segment-search';
import { PG_ONLY_COUNT_TABLES } from './pg-migrations/016-segment-search-counts';
import { PG_ONLY_RANK_TABLES } from './pg-migrations/018-segment-search-rank';
import { PG_ONLY_WORD_TABLES } from './pg-migrations/019-segment-search-words';
import type { PgSql } from './pg-sql';

/**
 * The PostgreSQL schema keeps step with the SQLite one: after both migrate, every SQLite table (but the FTS5 ones)
 * exists in PostgreSQL with the same columns, types, nullability, defaults, identity keys, foreign keys (with their ON
 * DELETE) and indexes, and PostgreSQL has nothing more. A SQLite migration without its PostgreSQL twin fails here.
 */

/** One schema as sorted lines in PostgreSQL's words, so a failure shows the line that differs. */
interface Schema {
  tables: string[];
  /** `table: n CHECK` (the expressions read differently in the two engines; their number per table must agree). */
  checks: string[];
  columns: string[];
  foreignKeys: string[];
  indexes: string[];
}

const SQLITE_TYPES: Record<string, string> = {
  INTEGER: 'bigint',
  REAL: 'double precision',
  TEXT: 'text',
  BLOB: 'bytea',
};

const TableInfo = z.array(
  z.object({
    name: z.string(),
    type: z.string(),
    notnull: z.number(),
    dflt_value: z.string().nullable(),
    pk: z.number(),
  }),
);
const ForeignKeyList = z.array(
  z.object({
    id: z.number(),
    seq: z.number(),
    table: z.string(),
    from: z.string(),
    to: z.string(),
    on_delete: z.string(),
  }),
);
const IndexList = z.array(z.object({ name: z.string(), unique: z.number(), partial: z.number() }));
const IndexInfo = z.array(z.object({ seqno: z.number(), name: z.string() }));

function sqliteSchema(db: Db): Schema {
  const tables = z
    .array(z.object({ name: z.string() }))
    .parse(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        .all(),
    )
    .map((t) => t.name)
    .filter((name) => !SQLITE_ONLY_TABLES.test(name));
  const schema: Schema = { tables, checks: [], columns: [], foreignKeys: [], indexes: [] };
  for (const table of tables) {
    const ddl = z
      .object({ sql: z.string() })
      .parse(db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)).sql;
    const checks = ddl.match(/\bCHECK\s*\(/gi)?.length ?? 0;
    if (checks > 0) schema.checks.push(`${table}: ${checks} CHECK`);
    const columns = TableInfo.parse(db.prepare(`SELECT * FROM pragma_table_info(?)`).all(table));
    const pk = columns.filter((c) => c.pk > 0);
    const rowidKey = pk.length === 1 && pk[0]?.type === 'INTEGER' ? pk[0].name : null;
    for (const c of columns) {
      const type = SQLITE_TYPES[c.type] ?? `unknown SQLite type ${c.type}`;
      const nullable = c.notnull === 0 && c.pk === 0;
      schema.columns.push(columnLine(table, c.name, type, nullable, c.dflt_value, c.name === rowidKey));
    }
    const fks = ForeignKeyList.parse(db.prepare(`SELECT * FROM pragma_foreign_key_list(?)`).all(table));
    for (const id of new Set(fks.map((f) => f.id))) {
      const parts = fks.filter((f) => f.id === id).sort((a, b) => a.seq - b.seq);
      const [first] = parts;
      if (!first) continue;
      schema.foreignKeys.push(
        `${table}(${parts.map((p) => p.from).join(',')}) -> ${first.table}(${parts.map((p) => p.to).join(',')}) ON DELETE ${first.on_delete}`,
      );
    }
    if (rowidKey) schema.indexes.push(`${table}(${rowidKey}) unique`);
    for (const index of IndexList.parse(db.prepare(`SELECT * FROM pragma_index_list(?)`).all(table))) {
      const cols = IndexInfo.parse(db.prepare(`SELECT * FROM pragma_index_info(?)`).all(index.name))
        .sort((a, b) => a.seqno - b.seqno)
        .map((c) => c.name);
      schema.indexes.push(indexLine(table, cols, index.unique === 1, index.partial === 1));
    }
  }
  return sorted(schema);
}

const PG_ON_DELETE: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

/** A PostgreSQL table with a SQLite twin (the search tables of each engine are its own). */
const shared = (table: string): boolean =>
  !PG_ONLY_TABLES.test(table) &&
  !PG_ONLY_COUNT_TABLES.test(table) &&
  !PG_ONLY_RANK_TABLES.test(table) &&
  !PG_ONLY_WORD_TABLES.test(table);

async function pgSchema(sql: PgSql): Promise<Schema> {
  const tables = z
    .array(z.object({ table_name: z.string() }))
    .parse(
      await sql.all(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'",
      ),
    )
    .map((t) => t.table_name)
    .filter(shared);
  const columns = z
    .array(
      z.object({
        table_name: z.string(),
        column_name: z.string(),
        data_type: z.string(),
        is_nullable: z.enum(['YES', 'NO']),
        column_default: z.string().nullable(),
        is_identity: z.enum(['YES', 'NO']),
      }),
    )
    .parse(
      await sql.all(
        `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migrations'`,
      ),
    )
    .filter((c) => shared(c.table_name))
    .map((c) =>
      columnLine(
        c.table_name,
        c.column_name,
        c.data_type,
        c.is_nullable === 'YES',
        c.column_default?.replace(/::[a-z ]+$/, '') ?? null,
        c.is_identity === 'YES',
      ),
    );
  const foreignKeys = z
    .array(
      z.object({ tbl: z.string(), cols: z.string(), ref: z.string(), ref_cols: z.string(), on_delete: z.string() }),
    )
    .parse(
      await sql.all(
        `SELECT c.conrelid::regclass::text AS tbl, c.confrelid::regclass::text AS ref, c.confdeltype AS on_delete,
           (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
              JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS cols,
           (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
              JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS ref_cols
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE c.contype = 'f' AND n.nspname = 'public'`,
      ),
    )
    .filter((f) => shared(f.tbl))
    .map((f) => `${f.tbl}(${f.cols}) -> ${f.ref}(${f.ref_cols}) ON DELETE ${PG_ON_DELETE[f.on_delete] ?? f.on_delete}`);
  const indexes = z
    .array(z.object({ tbl: z.string(), cols: z.string(), uniq: z.boolean(), partial: z.boolean() }))
    .parse(
      await sql.all(
        `SELECT t.relname AS tbl, i.indisunique AS uniq, i.indpred IS NOT NULL AS partial,
           (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
              JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS cols
         FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE n.nspname = 'public' AND t.relname <> 'schema_migrations'`,
      ),
    )
    .filter((i) => shared(i.tbl))
    .map((i) => indexLine(i.tbl, i.cols.split(','), i.uniq, i.partial));
  const checks = z
    .array(z.object({ tbl: z.string(), n: z.number() }))
    .parse(
      await sql.all(
        `SELECT c.conrelid::regclass::text AS tbl, COUNT(*) AS n FROM pg_constraint c
         JOIN pg_namespace ns ON ns.oid = c.connamespace
         WHERE c.contype = 'c' AND ns.nspname = 'public' GROUP BY c.conrelid`,
      ),
    )
    .filter((c) => shared(c.tbl))
    .map((c) => `${c.tbl}: ${c.n} CHECK`);
  return sorted({ tables, checks, columns, foreignKeys, indexes });
}

function columnLine(
  table: string,
  column: string,
  type: string,
  nullable: boolean,
  dflt: string | null,
  identity: boolean,
): string {
  return [
    `${table}.${column} ${type}`,
    nullable ? 'NULL' : 'NOT NULL',
    dflt === null ? '' : `DEFAULT ${dflt}`,
    identity ? 'IDENTITY' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function indexLine(table: string, cols: string[], unique: boolean, partial: boolean): string {
  return `${table}(${cols.join(',')})${unique ? ' unique' : ''}${partial ? ' partial' : ''}`;
}

function sorted(s: Schema): Schema {
  return {
    tables: [...s.tables].sort(),
    checks: [...s.checks].sort(),
    columns: [...s.columns].sort(),
    foreignKeys: [...s.foreignKeys].sort(),
    indexes: [...s.indexes].sort(),
  };
}

describe.skipIf(skipPostgresTests)('the PostgreSQL schema matches the SQLite one', () => {
  let server: TestPostgres;
  let pg: PgSql;
  let dir: { dir: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    server = await startPostgres();
    pg = await openPgSql(await server.createDatabase());
    dir = await tempDir();
  });
  afterAll(async () => {
    await pg.close();
    await server.stop();
    await dir.cleanup();
  });

  function migratedSqlite(name: string, migrations: readonly Migration[]): Schema {
    const db = openSqlite(join(dir.dir, name), migrations);
    try {
      return sqliteSchema(db);
    } finally {
      db.close();
    }
  }

  it('has every SQLite table but the FTS5 ones, with the same columns, keys and indexes', async () => {
    const sqlite = migratedSqlite('service.db', serviceMigrations);
    const postgres = await pgSchema(pg);
    expect(sqlite.tables.length).toBeGreaterThanOrEqual(19);
    expect(postgres.tables).toEqual(sqlite.tables);
    expect(postgres.columns).toEqual(sqlite.columns);
    expect(postgres.checks).toEqual(sqlite.checks);
    expect(postgres.foreignKeys).toEqual(sqlite.foreignKeys);
    expect(postgres.indexes).toEqual(sqlite.indexes);
  });

  it('has the PostgreSQL-only segment search table, its GIN indexes leading with the account', async () => {
    const indexes = z
      .array(z.object({ indexname: z.string(), indexdef: z.string() }))
      .parse(
        await pg.all(
          "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'segment_search' ORDER BY indexname",
        ),
      )
      .map((i) => `${i.indexname}: ${i.indexdef.replace(/^.* USING /, '')}`);
    expect(indexes).toEqual([
      'segment_search_account: btree (account_id, segment_id)',
      'segment_search_fuzzy: gin (account_id, body gin_trgm_ops)',
      'segment_search_match: gin (account_id, document)',
      'segment_search_pkey: btree (segment_id)',
    ]);
  });

  it('notices a SQLite migration that has no PostgreSQL twin', async () => {
    const ahead = migratedSqlite('ahead.db', [
      ...serviceMigrations,
      {
        version: serviceMigrations.length + 1,
        name: 'drift',
        up: 'ALTER TABLE videos ADD COLUMN rating INTEGER; CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT) STRICT',
      },
    ]);
    const postgres = await pgSchema(pg);
    expect(ahead.tables.filter((t) => !postgres.tables.includes(t))).toEqual(['notes']);
    expect(ahead.columns.filter((c) => !postgres.columns.includes(c))).toEqual([
      'notes.body text NULL',
      'notes.id bigint NOT NULL IDENTITY',
      'videos.rating bigint NULL',
    ]);
  });
});
