import { z } from 'zod';
import { UPLOAD_RESULTS, type UploadHistoryEntry, type UploadResult } from '../../shared/contract/sync';
import type { Db } from './database';

const rowSchema = z.object({
  id: z.number().int(),
  hash: z.string(),
  path: z.string(),
  bytes: z.number().int(),
  ms: z.number().int(),
  result: z.enum(UPLOAD_RESULTS),
  error: z.string().nullable(),
  video_no: z.string().nullable(),
  finished_at: z.number().int(),
});

export interface FinishedUpload {
  hash: string;
  path: string;
  bytes: number;
  ms: number;
  result: UploadResult;
  error?: string | null;
  videoNo?: string | null;
}

/** The `upload_history` table: one row per finished upload attempt, read newest first. */
export class UploadHistoryStore {
  constructor(private readonly db: Db) {}

  record(u: FinishedUpload, now = Date.now()): void {
    this.db
      .prepare(
        'INSERT INTO upload_history (hash, path, bytes, ms, result, error, video_no, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        u.hash,
        u.path,
        Math.max(0, Math.round(u.bytes)),
        Math.max(0, Math.round(u.ms)),
        u.result,
        u.error ?? null,
        u.videoNo ?? null,
        now,
      );
  }

  page(page: number, size: number): { entries: UploadHistoryEntry[]; total: number; failed: number } {
    const rows = this.db
      .prepare('SELECT * FROM upload_history ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?')
      .all(size, (page - 1) * size);
    const counts = z
      .object({ total: z.number().int(), failed: z.number().int().nullable() })
      .parse(this.db.prepare("SELECT COUNT(*) AS total, SUM(result = 'failed') AS failed FROM upload_history").get());
    const entries = rows.map((r) => {
      const row = rowSchema.parse(r);
      return {
        id: row.id,
        path: row.path,
        hash: row.hash,
        bytes: row.bytes,
        ms: row.ms,
        result: row.result,
        error: row.error,
        videoNo: row.video_no,
        finishedAt: row.finished_at,
      };
    });
    return { entries, total: counts.total, failed: counts.failed ?? 0 };
  }
}
