import { z } from 'zod';
import type { Db } from '../store/database';

export const PROXY_STATES = ['making', 'ready', 'uploaded', 'removed', 'failed'] as const;
export type ProxyState = (typeof PROXY_STATES)[number];

const proxyRowSchema = z.object({
  hash: z.string(),
  state: z.enum(PROXY_STATES),
  path: z.string(),
  size: z.number().int(),
  proxy_sha256: z.string().nullable(),
  width: z.number().int().nullable(),
  encoder: z.string().nullable(),
  progress: z.number(),
  video_no: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.number().int(),
  finished_at: z.number().int().nullable(),
});
export type ProxyRow = z.output<typeof proxyRowSchema>;

/** The `proxies` table (migration 010): one row per camera original's content hash. */
export class ProxyStore {
  constructor(private readonly db: Db) {}

  get(hash: string): ProxyRow | undefined {
    const row = this.db.prepare('SELECT * FROM proxies WHERE hash = ?').get(hash);
    return row === undefined ? undefined : proxyRowSchema.parse(row);
  }

  /** The original's content hash of the proxy that became this library video, if it was one. */
  byVideo(videoNo: string): ProxyRow | undefined {
    const row = this.db.prepare('SELECT * FROM proxies WHERE video_no = ?').get(videoNo);
    return row === undefined ? undefined : proxyRowSchema.parse(row);
  }

  /** Starts (or restarts from nothing) making the proxy of `hash` into `path`. */
  begin(hash: string, path: string, width: number, encoder: string, now = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO proxies (hash, state, path, width, encoder, created_at) VALUES (?, 'making', ?, ?, ?, ?)
         ON CONFLICT(hash) DO UPDATE SET state = 'making', path = excluded.path, size = 0, proxy_sha256 = NULL,
           width = excluded.width, encoder = excluded.encoder, progress = 0, error = NULL, finished_at = NULL`,
      )
      .run(hash, path, width, encoder, now);
  }

  progress(hash: string, percent: number): void {
    this.db.prepare('UPDATE proxies SET progress = ? WHERE hash = ?').run(percent, hash);
  }

  ready(hash: string, size: number, proxySha256: string, now = Date.now()): void {
    this.db
      .prepare(
        "UPDATE proxies SET state = 'ready', size = ?, proxy_sha256 = ?, progress = 100, finished_at = ? WHERE hash = ?",
      )
      .run(size, proxySha256, now, hash);
  }

  uploaded(hash: string, videoNo: string): void {
    this.db.prepare("UPDATE proxies SET state = 'uploaded', video_no = ? WHERE hash = ?").run(videoNo, hash);
  }

  /** The file is gone from the cache (evicted or no longer needed); the row keeps the link to the original. */
  removed(hash: string): void {
    this.db.prepare("UPDATE proxies SET state = 'removed', size = 0 WHERE hash = ?").run(hash);
  }

  failed(hash: string, error: string): void {
    this.db.prepare("UPDATE proxies SET state = 'failed', error = ? WHERE hash = ?").run(error, hash);
  }

  /** Bytes the cache holds in finished proxies. */
  cachedBytes(): number {
    const row = z
      .object({ n: z.number().nullable() })
      .parse(this.db.prepare("SELECT SUM(size) AS n FROM proxies WHERE state IN ('ready', 'uploaded')").get());
    return row.n ?? 0;
  }

  /** Finished proxies whose upload is done, oldest first: what the cache may evict. */
  evictable(): ProxyRow[] {
    return this.db
      .prepare("SELECT * FROM proxies WHERE state = 'uploaded' ORDER BY finished_at, hash")
      .all()
      .map((r) => proxyRowSchema.parse(r));
  }
}
