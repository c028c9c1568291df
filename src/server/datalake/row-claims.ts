import type { Sql } from '../storage/sql';

/** The datalake tables whose rows a worker process claims (`claimed_by`, `claim_until`). */
export type ClaimedTable = 'dl_operations' | 'dl_deliveries';

/** Gives up `owner`'s claim on a row (nothing happens when another process holds it). */
export async function releaseClaim(sql: Sql, table: ClaimedTable, id: string, owner: string): Promise<void> {
  await sql.run(`UPDATE ${table} SET claimed_by = NULL, claim_until = NULL WHERE id = ? AND claimed_by = ?`, id, owner);
}
