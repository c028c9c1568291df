import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describeError, unreachable } from '../../shared/errors';
import type { BlobDownloader } from '../api/download';
import type { Logger } from '../log';
import type { LibraryCacheStore } from '../store/library-cache-store';

export type Thumb =
  { ok: true; bytes: Buffer; contentType: string; cached: boolean } | { ok: false; status: number; message: string };

/**
 * Keyframe thumbnails on disk under `dir`, at most `maxBytes` in all: each use refreshes the entry's last-use time in
 * the client database, and a put that goes over the cap evicts least recently used entries first. Offline, `get` serves
 * what is cached; online it downloads a miss through the API (billed by bytes, so each keyframe is paid once).
 */
export class ThumbnailCache {
  private readonly log: Logger;
  private clock = 0;
  private readonly inflight = new Map<string, Promise<Thumb>>();

  constructor(
    private readonly o: {
      dir: string;
      store: LibraryCacheStore;
      maxBytes: number;
      downloader: () => BlobDownloader | null;
      logger: Logger;
      now?: () => number;
    },
  ) {
    this.log = o.logger.child({ module: 'thumbs' });
  }

  static keyOf(bucket: string, blob: string): string {
    return `${bucket}\n${blob}`;
  }

  /** Monotonic use stamps: two uses within one millisecond still order. */
  private stamp(): number {
    this.clock = Math.max(this.clock + 1, (this.o.now ?? Date.now)());
    return this.clock;
  }

  async get(bucket: string, blob: string, options: { cacheOnly?: boolean; signal?: AbortSignal } = {}): Promise<Thumb> {
    const key = ThumbnailCache.keyOf(bucket, blob);
    const hit = this.o.store.thumb(key);
    if (hit) {
      const bytes = await readFile(join(this.o.dir, hit.file)).catch(() => null);
      if (bytes) {
        this.o.store.touchThumb(key, this.stamp());
        return { ok: true, bytes, contentType: 'image/jpeg', cached: true };
      }
      this.o.store.deleteThumb(key);
    }
    if (options.cacheOnly) return { ok: false, status: 404, message: 'not in the thumbnail cache' };
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const fetching = this.fetch(key, bucket, blob, options.signal).finally(() => this.inflight.delete(key));
    this.inflight.set(key, fetching);
    return fetching;
  }

  private async fetch(key: string, bucket: string, blob: string, signal: AbortSignal | undefined): Promise<Thumb> {
    const downloader = this.o.downloader();
    if (!downloader)
      return { ok: false, status: 503, message: 'offline: no library service to fetch the keyframe from' };
    await mkdir(this.o.dir, { recursive: true });
    const file = `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.jpg`;
    const part = join(this.o.dir, `${file}.part`);
    try {
      const res = await downloader.fetchTo(bucket, blob, part, { offset: 0, expectedTotal: null, signal });
      switch (res.type) {
        case 'complete':
          if (!res.contentType.startsWith('image/')) {
            await rm(part, { force: true });
            return { ok: false, status: 415, message: `not an image: ${res.contentType}` };
          }
          await rename(part, join(this.o.dir, file));
          return { ok: true, bytes: await this.put(key, file), contentType: res.contentType, cached: false };
        case 'gone':
          return { ok: false, status: 404, message: res.message };
        case 'restart':
          return { ok: false, status: 502, message: res.reason };
        case 'error':
          return { ok: false, status: res.error.details.status ?? 502, message: res.error.message };
        default:
          throw unreachable(res);
      }
    } catch (err) {
      await rm(part, { force: true });
      if (signal?.aborted) throw err;
      return { ok: false, status: 503, message: describeError(err) };
    }
  }

  /** Bytes the cache holds now. */
  size(): number {
    return this.o.store.thumbBytes();
  }

  private async put(key: string, file: string): Promise<Buffer> {
    const path = join(this.o.dir, file);
    const bytes = await readFile(path);
    this.o.store.putThumb({ key, file, size: (await stat(path)).size, last_used: this.stamp() });
    await this.evict(key);
    return bytes;
  }

  /** Oldest entries out until the total fits the cap (never the entry just added). */
  private async evict(keep: string): Promise<void> {
    while (this.o.store.thumbBytes() > this.o.maxBytes) {
      const victims = this.o.store.oldestThumbs(16).filter((v) => v.key !== keep);
      if (victims.length === 0) return;
      for (const v of victims) {
        if (this.o.store.thumbBytes() <= this.o.maxBytes) return;
        this.o.store.deleteThumb(v.key);
        await rm(join(this.o.dir, v.file), { force: true });
        this.log.debug({ file: v.file, size: v.size }, 'evicted');
      }
    }
  }
}
