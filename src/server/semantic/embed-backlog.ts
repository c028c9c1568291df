import type { Logger } from 'pino';
import type { BlobStore, LocalBlobFile } from '../storage/blob-store';
import type { Embedder } from './clip-embedder';
import type { EmbedClaims } from './embed-claims';
import type { EmbeddingStore, PendingKeyframe } from './embedding-store';

const BATCH = 8;
/**
 * Every this many passes one starts from the first segment; the others start past the segments a clean pass already
 * went through. What only a full pass finds: a segment another process claimed and dropped (it died), a video back in
 * PARSE with its old segments, a segment a later-committing transaction numbered below the mark.
 */
export const FULL_PASS_EVERY = 10;

/**
 * Embeds every keyframe that has no vector from the model yet: those of a video just indexed, and those of videos
 * indexed before the model was there (the backfill). The work list is the table itself, so nothing is lost across a
 * restart. Each batch is claimed first (embed-claims.ts), so processes sharing a database embed each keyframe once.
 * One pass at a time; asking during a pass runs another once it ends, and the promise covers both.
 */
export class EmbedBacklog {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Segments up to this id had no keyframe left to embed when the last clean pass began. */
  private mark = 0;
  private passes = 0;

  constructor(
    private readonly store: EmbeddingStore,
    private readonly claims: EmbedClaims,
    private readonly blobs: BlobStore,
    private readonly log: Logger,
  ) {}

  /** Resolves once no keyframe is left to embed (those that fail are logged and left for the next pass). */
  drain(model: string, embedder: () => Promise<Embedder>): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async (): Promise<void> => {
      do {
        this.again = false;
        await this.pass(model, await embedder());
      } while (this.again && !this.stopped);
    };
    this.running = run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Ends the pass at its current batch and waits for it; later drains do nothing. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  /**
   * One walk over the pending keyframes. On a shared database each worker looks every `semantic.pollMs`: with nothing
   * pending, a walk from the first segment reads every segment; past the mark it reads none.
   */
  private async pass(model: string, embedder: Embedder): Promise<void> {
    await this.claims.sweep();
    const full = this.passes++ % FULL_PASS_EVERY === 0;
    const top = await this.store.lastSegmentId();
    let after = full ? 0 : this.mark;
    let embedded = 0;
    // Clean: every keyframe pending up to `top` was embedded here (none failed, none was another process's).
    let clean = true;
    while (!this.stopped) {
      const candidates = await this.store.pending(model, after, BATCH);
      if (candidates.length === 0) break;
      after = candidates[candidates.length - 1]!.segmentId;
      // Another process may claim some of them first: it embeds those, this one goes on after them.
      const claimed = new Set(
        await this.claims.claim(
          model,
          candidates.map((k) => k.segmentId),
        ),
      );
      const batch = candidates.filter((k) => claimed.has(k.segmentId));
      if (batch.length < candidates.length) clean = false;
      if (batch.length === 0) continue;
      try {
        const done = await this.embedBatch(model, embedder, batch);
        if (done < batch.length) clean = false;
        embedded += done;
      } finally {
        await this.claims.release(model, [...claimed]);
      }
    }
    if (clean && !this.stopped) this.mark = Math.max(this.mark, top);
    else this.passes = 0; // the next pass starts from the first segment
    if (embedded) this.log.info({ model, embedded }, 'keyframes embedded');
  }

  /** Embeds and stores one claimed batch; answers how many keyframes it embedded (0 when the batch failed). */
  private async embedBatch(model: string, embedder: Embedder, batch: PendingKeyframe[]): Promise<number> {
    // Local files for the model: the stored keyframes on disk, streamed copies in tmp/ from S3.
    const files: LocalBlobFile[] = [];
    const found: { segmentId: number; path: string }[] = [];
    for (const k of batch) {
      const file = await this.blobs.localFile(k.bucket, k.keyframeBlob).catch(() => null);
      if (!file) continue;
      files.push(file);
      found.push({ segmentId: k.segmentId, path: file.path });
    }
    try {
      const vectors = await embedder.embedImages(found.map((k) => k.path));
      await this.store.put(
        model,
        found.map((k, i) => ({ segmentId: k.segmentId, vector: vectors[i]! })),
      );
      return found.length;
    } catch (err) {
      this.log.warn(
        { err: err instanceof Error ? err.message : String(err), segments: found.map((k) => k.segmentId) },
        'keyframes could not be embedded; left for the next pass',
      );
      return 0;
    } finally {
      await Promise.all(files.map((f) => f.release()));
    }
  }
}
