import type { Logger } from '../log';
import type { Db } from '../store/database';
import { OriginalIdentities } from './identities';
import { SqliteIdentityStore } from './identity-store';

/**
 * Reads the identity (timecode, reel, clip name, sidecars) of every linked file that has none or changed since it was
 * read, one file at a time in the background. Returns how many were read.
 */
export async function backfillIdentities(o: { db: Db; logger: Logger; signal: AbortSignal }): Promise<number> {
  const store = new SqliteIdentityStore(o.db);
  const identities = new OriginalIdentities(store, o.logger);
  let done = 0;
  for (const file of store.staleFiles()) {
    if (o.signal.aborted) break;
    if (await identities.identityOf(file.path, o.signal)) done++;
  }
  if (done > 0) o.logger.child({ module: 'identity-backfill' }).info({ files: done }, 'identities read');
  return done;
}
