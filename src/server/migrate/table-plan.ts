import { z } from 'zod';
import type { Db } from '../../common/sqlite';
import { SQLITE_ONLY_TABLES } from '../storage/pg-migrations/001-library';
import type { Sql } from '../storage/sql';
import { MigrateRefusal } from './source-library';

export type ColumnType = 'INTEGER' | 'REAL' | 'TEXT' | 'BLOB';

/** One table both schemas have, as the copy and the checksums read it. */
export interface TablePlan {
  name: string;
  columns: { name: string; type: ColumnType }[];
  /** The primary key's columns in key order: rows are copied and hashed in this order. */
  key: { name: string; type: ColumnType }[];
  /** The PostgreSQL identity column, whose sequence is moved past the copied ids. */
  identity: string | null;
}

export interface Plan {
  /** In foreign-key order: a table comes after every table it references. */
  tables: TablePlan[];
  /** SQLite-only tables left behind (the FTS5 search index). */
  skipped: string[];
}

const Names = z.array(z.object({ name: z.string() }));
const ColumnInfo = z.array(z.object({ name: z.string(), type: z.string(), pk: z.number() }));
const ForeignKeys = z.array(z.object({ table: z.string() }));
const ColumnType = z.enum(['INTEGER', 'REAL', 'TEXT', 'BLOB']);

/**
 * The tables to copy, read from both schemas (not a list kept by hand): every SQLite table but the FTS5 ones, each of
 * which PostgreSQL must have with the same columns. Tables only PostgreSQL has (its own search schema) are not copied.
 */
export async function planTables(db: Db, target: Sql): Promise<Plan> {
  const all = Names.parse(
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all(),
  ).map((t) => t.name);
  const skipped = all.filter((t) => SQLITE_ONLY_TABLES.test(t)).sort();
  const shared = all.filter((t) => !SQLITE_ONLY_TABLES.test(t));
  const tables: TablePlan[] = [];
  for (const name of shared) {
    const info = ColumnInfo.parse(db.prepare('SELECT name, type, pk FROM pragma_table_info(?)').all(name));
    const columns = info.map((c) => ({ name: c.name, type: ColumnType.parse(c.type) }));
    const key = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => ({ name: c.name, type: ColumnType.parse(c.type) }));
    if (key.length === 0) throw new MigrateRefusal(`table ${name} has no primary key: cannot copy it idempotently`);
    const pgColumns = Names.parse(
      await target.all(
        `SELECT column_name AS name FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = ? ORDER BY column_name`,
        name,
      ),
    ).map((c) => c.name);
    const mine = columns.map((c) => c.name).sort();
    if (pgColumns.length === 0) {
      throw new MigrateRefusal(`the team database has no table ${name}: its schema is older than this library's`);
    }
    if (mine.join(',') !== pgColumns.join(',')) {
      throw new MigrateRefusal(
        `table ${name} differs: the library has columns ${mine.join(', ')}, the team database ${pgColumns.join(', ')}`,
      );
    }
    const identity = Names.parse(
      await target.all(
        `SELECT column_name AS name FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = ? AND is_identity = 'YES'`,
        name,
      ),
    )[0];
    tables.push({ name, columns, key, identity: identity?.name ?? null });
  }
  return { tables: foreignKeyOrder(db, tables), skipped };
}

/** Parents before children (Kahn's algorithm, ties by name, so the order is the same every run). */
function foreignKeyOrder(db: Db, tables: TablePlan[]): TablePlan[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const parents = new Map(
    tables.map((t) => [
      t.name,
      new Set(
        ForeignKeys.parse(db.prepare('SELECT "table" FROM pragma_foreign_key_list(?)').all(t.name))
          .map((f) => f.table)
          .filter((p) => p !== t.name && byName.has(p)),
      ),
    ]),
  );
  const ordered: TablePlan[] = [];
  const done = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = [...byName.keys()]
      .filter((n) => !done.has(n) && [...(parents.get(n) ?? [])].every((p) => done.has(p)))
      .sort();
    const next = ready[0];
    if (next === undefined)
      throw new MigrateRefusal('the tables reference each other in a cycle: no order to copy them');
    done.add(next);
    const table = byName.get(next);
    if (table) ordered.push(table);
  }
  return ordered;
}

/** A column name quoted for SQL (the names come from the schema, never from input). */
export function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
