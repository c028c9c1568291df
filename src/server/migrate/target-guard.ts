import { z } from 'zod';
import type { Db } from '../../common/sqlite';
import type { Sql } from '../storage/sql';
import { MigrateRefusal } from './source-library';
import type { TablePlan } from './table-plan';
import { countRows } from './table-rows';

const Account = z.object({ id: z.number().int(), name: z.string(), webhook_secret: z.string() });

/**
 * The target may hold nothing, or this library (an earlier run, finished or killed). An account the library does not
 * have (same id, name and webhook secret: the secret is random per account) means another library lives there, and
 * rows without any account mean something else does: either way nothing is written.
 */
export async function refuseOtherData(db: Db, target: Sql, tables: TablePlan[]): Promise<void> {
  const theirs = z.array(Account).parse(await target.all('SELECT id, name, webhook_secret FROM accounts ORDER BY id'));
  const mine = new Map(
    z
      .array(Account)
      .parse(db.prepare('SELECT id, name, webhook_secret FROM accounts').all())
      .map((a) => [a.id, a]),
  );
  for (const account of theirs) {
    const same = mine.get(account.id);
    if (!same || same.name !== account.name || same.webhook_secret !== account.webhook_secret) {
      throw new MigrateRefusal(
        `the team database already holds another library (its account "${account.name}" is not this library's): ` +
          'migrate-to copies into an empty database, or into one it copied this library to before',
      );
    }
  }
  if (theirs.length > 0) return;
  for (const table of tables) {
    if ((await countRows(target, table.name)) > 0) {
      throw new MigrateRefusal(
        `the team database has no accounts but holds rows in ${table.name}: migrate-to copies into an empty database`,
      );
    }
  }
}
