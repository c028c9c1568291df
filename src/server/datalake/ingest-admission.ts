import type { Account } from '../accounts/accounts';
import { indexingPrice } from '../accounts/billing';
import type { CollectionRow } from './collections';
import type { Datalake } from './datalake';
import { DatalakeError, missing } from './errors';
import type { OperationRow } from './operations';
import type { Sql } from '../storage/sql';

/** 409: the request clashes with the state of what it names. */
export const conflict = (message: string, details: Record<string, unknown> = {}): DatalakeError =>
  new DatalakeError(409, 'conflict', message, {}, details);

/** The account's active collection for a new video. */
export async function targetCollection(dl: Datalake, account: Account, collectionId: string): Promise<CollectionRow> {
  const collection = await dl.collections.get(account.id, collectionId);
  if (!collection) throw missing('collection');
  if (collection.state !== 'active') throw conflict('the collection is being deleted');
  return collection;
}

/** A previous ingest with this key: returned as is (no second ingest, no second charge) if the request matches. */
export async function replayed(
  dl: Datalake,
  accountId: number,
  key: string | undefined,
  hash: string,
  on: Sql = dl.ctx.sql,
): Promise<OperationRow | undefined> {
  if (!key) return undefined;
  const previous = await dl.operations.byIdempotencyKey(accountId, key, on);
  if (previous && previous.request_hash !== hash)
    throw conflict('idempotency_key was already used for a different request');
  return previous;
}

/** Refuses a new ingest over the concurrent-indexing cap (429 + Retry-After) or without funds for a minute of video. */
export async function admit(dl: Datalake, account: Account): Promise<void> {
  // The balance first, then the cap (the account's running ingests).
  await dl.ctx.billing.requireAtLeast(account.id, indexingPrice(60));
  const cap = dl.ctx.config.limits.concurrentIngests;
  const active = await dl.operations.activeIngests(account.id);
  if (active >= cap) {
    throw new DatalakeError(429, 'rate_limited', `${active} ingests are running, the plan allows ${cap} at once`, {
      'retry-after': '15',
    });
  }
}
