import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../store/database';

export const DOWNLOAD_KINDS = ['video', 'keyframe', 'image'] as const;
export type DownloadKind = (typeof DOWNLOAD_KINDS)[number];
export const DOWNLOAD_STATES = ['queued', 'downloading', 'done', 'failed', 'gone', 'cancelled'] as const;
export type DownloadState = (typeof DOWNLOAD_STATES)[number];

export const downloadRowSchema = z.object({
  id: z.number().int(),
  kind: z.enum(DOWNLOAD_KINDS),
  bucket: z.string(),
  blob: z.string(),
  video_no: z.string().nullable(),
  dest_dir: z.string(),
  file_name: z.string().nullable(),
  /** The part file's name inside dest_dir (random, kept so a restart resumes it). */
  part_name: z.string().regex(/^\.reelsync-[A-Za-z0-9-]+\.part$/),
  path: z.string().nullable(),
  state: z.enum(DOWNLOAD_STATES),
  bytes: z.number().int(),
  total: z.number().int().nullable(),
  quoted_bytes: z.number().int().nullable(),
  quoted_micro_usd: z.number().int().nullable(),
  restarts: z.number().int(),
  resumes: z.number().int(),
  error: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type DownloadRow = z.output<typeof downloadRowSchema>;

export interface NewDownload {
  kind: DownloadKind;
  bucket: string;
  blob: string;
  videoNo: string | null;
  destDir: string;
  quotedBytes: number | null;
  quotedMicroUsd: number | null;
}

/** Typed queries over `downloads`: one row per requested resource; the job queue row (kind 'download') drives it. */
export class DownloadStore {
  constructor(private readonly db: Db) {}

  /** Whether a finished download was written to exactly this path. */
  hasFile(path: string): boolean {
    return this.db.prepare("SELECT 1 FROM downloads WHERE path = ? AND state = 'done' LIMIT 1").get(path) !== undefined;
  }

  create(d: NewDownload, now = Date.now()): DownloadRow {
    const row = this.db
      .prepare(
        `INSERT INTO downloads (kind, bucket, blob, video_no, dest_dir, part_name, state, quoted_bytes, quoted_micro_usd, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?) RETURNING *`,
      )
      .get(
        d.kind,
        d.bucket,
        d.blob,
        d.videoNo,
        d.destDir,
        `.reelsync-${randomBytes(16).toString('hex')}.part`,
        d.quotedBytes,
        d.quotedMicroUsd,
        now,
        now,
      );
    return downloadRowSchema.parse(row);
  }

  get(id: number): DownloadRow | undefined {
    const row = this.db.prepare('SELECT * FROM downloads WHERE id = ?').get(id);
    return row ? downloadRowSchema.parse(row) : undefined;
  }

  /** An unfinished or finished download of this resource into this folder (reused instead of a second one). */
  reusable(bucket: string, blob: string, destDir: string): DownloadRow | undefined {
    const row = this.db
      .prepare(
        `SELECT * FROM downloads WHERE bucket = ? AND blob = ? AND dest_dir = ? AND state IN ('queued', 'downloading', 'done') ORDER BY id DESC LIMIT 1`,
      )
      .get(bucket, blob, destDir);
    return row ? downloadRowSchema.parse(row) : undefined;
  }

  list(limit = 200, states?: readonly DownloadState[]): DownloadRow[] {
    const where = states && states.length > 0 ? `WHERE state IN (${states.map(() => '?').join(',')})` : '';
    return this.db
      .prepare(`SELECT * FROM downloads ${where} ORDER BY id DESC LIMIT ?`)
      .all(...(states ?? []), limit)
      .map((r) => downloadRowSchema.parse(r));
  }

  setState(id: number, state: DownloadState, error: string | null = null): DownloadRow | undefined {
    const row = this.db
      .prepare('UPDATE downloads SET state = ?, error = ?, updated_at = ? WHERE id = ? RETURNING *')
      .get(state, error, Date.now(), id);
    return row ? downloadRowSchema.parse(row) : undefined;
  }

  started(
    id: number,
    fields: { fileName: string | null; total: number | null; resumed: boolean; bytes: number },
  ): void {
    this.db
      .prepare(
        `UPDATE downloads SET state = 'downloading', file_name = COALESCE(file_name, ?), total = COALESCE(?, total), bytes = ?,
           resumes = resumes + ?, error = NULL, updated_at = ? WHERE id = ?`,
      )
      .run(fields.fileName, fields.total, fields.bytes, fields.resumed ? 1 : 0, Date.now(), id);
  }

  progress(id: number, bytes: number): void {
    this.db.prepare('UPDATE downloads SET bytes = ?, updated_at = ? WHERE id = ?').run(bytes, Date.now(), id);
  }

  restarted(id: number, reason: string): void {
    this.db
      .prepare(
        'UPDATE downloads SET bytes = 0, total = NULL, restarts = restarts + 1, error = ?, updated_at = ? WHERE id = ?',
      )
      .run(reason, Date.now(), id);
  }

  done(id: number, path: string, bytes: number): DownloadRow {
    const row = this.db
      .prepare(
        `UPDATE downloads SET state = 'done', path = ?, bytes = ?, total = ?, error = NULL, updated_at = ? WHERE id = ? RETURNING *`,
      )
      .get(path, bytes, bytes, Date.now(), id);
    return downloadRowSchema.parse(row);
  }
}
