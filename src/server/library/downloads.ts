import { API_MESSAGES } from '../../shared/api-types';
import { parseByteRange, type ByteRange } from '../../shared/byte-range';
import { downloadPrice, InsufficientBalanceError } from '../accounts/billing';
import { bucketOf, type ServiceContext } from '../context';
import { insufficientBalance, notFound, rateLimited } from '../domain-errors';

/** What a download answers: the blob with the bytes it sends (a range or all), or 416. */
export type PlannedDownload =
  | { kind: 'unsatisfiable'; size: number }
  | { kind: 'blob'; bucket: string; blob: string; size: number; range: ByteRange | null; bytes: number; name: string };

/** Downloads of interface A: stored blobs of the caller's own bucket, billed by the bytes sent. */
export class LibraryDownloads {
  constructor(private readonly ctx: ServiceContext) {}

  /** The checks every download method makes (rate limit, ownership, existence, range); charges nothing. */
  async plan(
    accountId: number,
    bucket: string,
    blob: string,
    rangeHeader: string | undefined,
  ): Promise<PlannedDownload> {
    const { ctx } = this;
    const wait = await ctx.limits.download.take(`download:${accountId}`);
    if (wait) throw rateLimited(wait);
    // Another account's bucket, an invalid or escaping path, a deleted video: all the same "does not exist".
    if (bucket !== bucketOf(accountId)) throw notFound();
    const size = await ctx.blobs.size(bucket, blob);
    if (size === null) throw notFound();
    const range = parseByteRange(rangeHeader, size);
    if (range === 'unsatisfiable') return { kind: 'unsatisfiable', size };
    const bytes = range ? range.end - range.start + 1 : size;
    return { kind: 'blob', bucket, blob, size, range, bytes, name: await this.originalName(accountId, blob) };
  }

  /** The blob of a video by its number, for POST /download. */
  async planVideo(accountId: number, videoNo: string, rangeHeader: string | undefined): Promise<PlannedDownload> {
    const row = await this.ctx.videos.byNo(accountId, videoNo);
    if (!row?.blob) throw notFound();
    return this.plan(accountId, row.bucket, row.blob, rangeHeader);
  }

  /** Charges the bytes a planned download sends, before streaming starts; 402 with the contract's message. */
  async charge(accountId: number, p: PlannedDownload & { kind: 'blob' }): Promise<void> {
    try {
      await this.ctx.billing.charge(accountId, downloadPrice(p.bytes), 'download', `${p.bucket}/${p.blob}`);
    } catch (err) {
      if (err instanceof InsufficientBalanceError) throw insufficientBalance(API_MESSAGES.downloadBalance);
      throw err;
    }
  }

  /** The name the user uploaded for a video blob; the blob's own last part for keyframes and posters. */
  private async originalName(accountId: number, blob: string): Promise<string> {
    const m = /^videos\/([^/]+)\//.exec(blob);
    const row = m?.[1] ? await this.ctx.videos.byNo(accountId, m[1]) : undefined;
    return row?.original_name ?? blob.split('/').pop() ?? 'download';
  }
}
