import { z } from 'zod';
import { pgMigrations } from './pg-migrations';
import { migratePg } from './pg-migrations/migrate';
import { PgSql, type PgSqlOptions } from './pg-sql';
import { renumberPg } from './schema-renumbering';

const PgUrl = z
  .string()
  .refine((u) => /^postgres(ql)?:\/\//.test(u), 'expected postgres://user[:password]@host[:port]/database');

/**
 * The service database on PostgreSQL: a pool on `url`, its schema moved to the shared numbering and brought up to date (refusing one newer than this
 * build). The caller closes it.
 */
export async function openPgSql(url: string, options: PgSqlOptions = {}): Promise<PgSql> {
  const checked = PgUrl.safeParse(url);
  if (!checked.success) throw new Error(`database URL: ${checked.error.issues[0]?.message ?? 'invalid'}`);
  const sql = new PgSql(checked.data, options);
  try {
    await renumberPg(sql);
    await migratePg(sql, pgMigrations);
    return sql;
  } catch (err) {
    await sql.close();
    throw err;
  }
}
