import type { ServiceContext } from '../context';
import { rateLimited } from '../domain-errors';
import type { Sql } from '../storage/sql';
import { lockAccount } from './account-lock';

/** The rolling window of the indexing-queue cap. */
export const QUEUE_WINDOW_MS = 2 * 60 * 60 * 1000;

/**
 * Admission of new media, made before a byte of it is read or fetched, the same for every way in (POST /upload,
 * /upload_url, a resumable session): the account's upload rate limit, a balance of at least `minPriceMicro`, and the
 * indexing-queue cap. Throws the refusal (Refusal, or InsufficientBalanceError for 402); charges nothing.
 * The queue cap checked here refuses early; holdQueueCap is the exact check, where the video row is inserted.
 */
export async function admitNewMedia(ctx: ServiceContext, accountId: number, minPriceMicro: number): Promise<void> {
  const wait = await ctx.limits.upload.take(`upload:${accountId}`);
  if (wait) throw rateLimited(wait);
  await ctx.billing.requireAtLeast(accountId, minPriceMicro);
  await checkQueueCap(ctx, accountId, ctx.sql);
}

/**
 * The indexing-queue cap, in the transaction `tx` that inserts the new video: under the account's lock, so concurrent
 * uploads (in this process or on another replica) cannot all count the same queue and pass the cap together.
 */
export async function holdQueueCap(ctx: ServiceContext, tx: Sql, accountId: number): Promise<void> {
  await lockAccount(tx, accountId);
  await checkQueueCap(ctx, accountId, tx);
}

async function checkQueueCap(ctx: ServiceContext, accountId: number, on: Sql): Promise<void> {
  if ((await ctx.videos.queuedSince(accountId, Date.now() - QUEUE_WINDOW_MS, on)) >= ctx.config.limits.indexQueueCap) {
    throw rateLimited(60, 'The indexing queue is full: wait for earlier videos to finish indexing.');
  }
}
