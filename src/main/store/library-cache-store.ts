import { z } from 'zod';
import type { Db } from './database';

const thumbRowSchema = z.object({
  key: z.string(),
  file: z.string(),
  size: z.number().int(),
  last_used: z.number().int(),
});
export type ThumbRow = z.infer<typeof thumbRowSchema>;

const searchRowSchema = z.object({
  id: z.number().int(),
  query: z.string(),
  search_type: z.string(),
  request: z.string(),
  hits: z.string(),
  at: z.number().int(),
});
export type SearchResultRow = z.infer<typeof searchRowSchema>;

/** Index of the on-disk keyframe cache (size and last use, for LRU) and the stored last searches. */
export class LibraryCacheStore {
  constructor(private readonly db: Db) {}

  thumb(key: string): ThumbRow | undefined {
    const row = this.db.prepare('SELECT * FROM thumbnails WHERE key = ?').get(key);
    return row ? thumbRowSchema.parse(row) : undefined;
  }

  touchThumb(key: string, at: number): void {
    this.db.prepare('UPDATE thumbnails SET last_used = ? WHERE key = ?').run(at, key);
  }

  putThumb(row: ThumbRow): void {
    this.db
      .prepare(
        'INSERT INTO thumbnails (key, file, size, last_used) VALUES (?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET file = excluded.file, size = excluded.size, last_used = excluded.last_used',
      )
      .run(row.key, row.file, row.size, row.last_used);
  }

  deleteThumb(key: string): void {
    this.db.prepare('DELETE FROM thumbnails WHERE key = ?').run(key);
  }

  thumbBytes(): number {
    return (this.db.prepare('SELECT COALESCE(SUM(size), 0) AS n FROM thumbnails').get() as { n: number }).n;
  }

  /** Least recently used first. */
  oldestThumbs(limit: number): ThumbRow[] {
    return this.db
      .prepare('SELECT * FROM thumbnails ORDER BY last_used, key LIMIT ?')
      .all(limit)
      .map((r) => thumbRowSchema.parse(r));
  }

  recordSearch(query: string, type: string, request: string, hits: string, at: number, keep: number): void {
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO search_results (query, search_type, request, hits, at) VALUES (?, ?, ?, ?, ?)')
        .run(query, type, request, hits, at);
      this.db
        .prepare('DELETE FROM search_results WHERE id NOT IN (SELECT id FROM search_results ORDER BY id DESC LIMIT ?)')
        .run(keep);
    })();
  }

  lastSearch(): SearchResultRow | undefined {
    const row = this.db.prepare('SELECT * FROM search_results ORDER BY id DESC LIMIT 1').get();
    return row ? searchRowSchema.parse(row) : undefined;
  }
}
