import { ENVELOPE_CODES } from '../../shared/api-types';
import type { ServiceContext } from '../context';
import { HttpError, rateLimited } from '../http/envelope';

/** The rolling window of the indexing-queue cap. */
export const QUEUE_WINDOW_MS = 2 * 60 * 60 * 1000;

/**
 * Admission of new media, made before a byte of it is read or fetched, the same for every way in (POST /upload,
 * /upload_url, a resumable session): the account's upload rate limit, a balance of at least `minPriceMicro`, and the
 * indexing-queue cap. Throws the refusal (HttpError, or InsufficientBalanceError for 402); charges nothing.
 */
export async function admitNewMedia(ctx: ServiceContext, accountId: number, minPriceMicro: number): Promise<void> {
  const wait = await ctx.limits.upload.take(`upload:${accountId}`);
  if (wait) throw rateLimited(wait);
  await ctx.billing.requireAtLeast(accountId, minPriceMicro);
  if ((await ctx.videos.queuedSince(accountId, Date.now() - QUEUE_WINDOW_MS)) >= ctx.config.limits.indexQueueCap) {
    throw new HttpError(
      429,
      ENVELOPE_CODES.rateLimited,
      'The indexing queue is full: wait for earlier videos to finish indexing.',
      {
        'retry-after': '60',
      },
    );
  }
}
