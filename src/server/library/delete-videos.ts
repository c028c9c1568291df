import type { ServiceContext } from '../context';

/** The blob folders a library video owns: its original, keyframes and poster. */
const VIDEO_BLOB_PREFIXES = ['videos', 'keyframes', 'posters'] as const;

/** Deletes the account's videos by number, with their index and blobs; numbers it does not own are `not_found`. */
export async function deleteVideos(
  ctx: ServiceContext,
  accountId: number,
  videoNos: readonly string[],
): Promise<{ deleted: string[]; not_found: string[] }> {
  const deleted: string[] = [];
  const notFound: string[] = [];
  for (const no of new Set(videoNos)) {
    const row = await ctx.videos.byNo(accountId, no);
    if (!row) {
      notFound.push(no);
      continue;
    }
    await ctx.videos.delete(row.id);
    for (const prefix of VIDEO_BLOB_PREFIXES) await ctx.blobs.deletePrefix(row.bucket, `${prefix}/${no}`);
    deleted.push(no);
  }
  return { deleted, not_found: notFound };
}
