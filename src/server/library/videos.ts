import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { VIDEO_STATUSES, type VideoMetadata, type VideoStatus } from '../../shared/api-types';
import type { Db } from '../storage/db';
import { Where } from '../storage/where';
import { unindexVideo } from '../search/segment-index';

export interface NewVideo {
  accountId: number;
  folderId: number;
  videoName: string;
  originalName: string;
  bucket: string;
  /** null while the original is still being fetched (POST /upload_url). */
  blob: string | null;
  contentType: string;
  size: number;
  sha256: string;
  duration: number | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  codec: string | null;
  datetimeTaken: string | null;
  cameraModel: string | null;
  latitude: number | null;
  longitude: number | null;
  callback: string | null;
  retainOriginal: boolean;
  transcriptionPrompt: string | null;
  tags: string[];
}

const int = z.number().int();

/** A row of `videos`, parsed as read. */
export const videoRowSchema = z.object({
  id: int,
  video_no: z.string(),
  account_id: int,
  folder_id: int,
  video_name: z.string(),
  original_name: z.string(),
  status: z.enum(VIDEO_STATUSES),
  progress: z.number(),
  fail_reason: z.string().nullable(),
  bucket: z.string(),
  blob: z.string().nullable(),
  content_type: z.string(),
  size: int,
  sha256: z.string(),
  duration: z.number().nullable(),
  width: int.nullable(),
  height: int.nullable(),
  fps: z.number().nullable(),
  codec: z.string().nullable(),
  datetime_taken: z.string().nullable(),
  camera_model: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  callback: z.string().nullable(),
  retain_original: int,
  transcription_prompt: z.string().nullable(),
  poster_blob: z.string().nullable(),
  /** JSON text: the analyzers that could not run, with why. */
  missing_engines: z.string(),
  created_at: int,
  indexed_at: int.nullable(),
});
export type VideoRow = z.infer<typeof videoRowSchema>;

const videoRow = (row: unknown): VideoRow => videoRowSchema.parse(row);
const optionalVideoRow = (row: unknown): VideoRow | undefined => (row === undefined ? undefined : videoRow(row));
const count = (row: unknown): number => z.object({ n: int }).parse(row).n;
const missingEngines = z
  .string()
  .transform((text): unknown => JSON.parse(text))
  .pipe(z.array(z.object({ analyzer: z.string(), reason: z.string() })));

export interface ListFilter {
  accountId: number;
  folderId?: number;
  status?: VideoStatus;
  videoName?: string;
  videoNo?: string;
  tag?: string;
  page: number;
  size: number;
}

export function newVideoNo(): string {
  return `VI${Date.now()}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

export class Videos {
  constructor(private readonly db: Db) {}

  insert(v: NewVideo, videoNo = newVideoNo()): VideoRow {
    return this.db.transaction(() => {
      const id = Number(
        this.db
          .prepare(
            `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, blob, content_type,
               size, sha256, duration, width, height, fps, codec, datetime_taken, camera_model, latitude, longitude, callback,
               retain_original, transcription_prompt, created_at)
             VALUES (?, ?, ?, ?, ?, 'UNPARSE', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            videoNo,
            v.accountId,
            v.folderId,
            v.videoName,
            v.originalName,
            v.bucket,
            v.blob,
            v.contentType,
            v.size,
            v.sha256,
            v.duration,
            v.width,
            v.height,
            v.fps,
            v.codec,
            v.datetimeTaken,
            v.cameraModel,
            v.latitude,
            v.longitude,
            v.callback,
            v.retainOriginal ? 1 : 0,
            v.transcriptionPrompt,
            Date.now(),
          ).lastInsertRowid,
      );
      const tag = this.db.prepare('INSERT OR IGNORE INTO video_tags (video_id, tag, position) VALUES (?, ?, ?)');
      v.tags.forEach((t, i) => tag.run(id, t, i));
      const row = this.byId(id);
      if (!row) throw new Error(`video ${id} vanished inside its insert transaction`);
      return row;
    })();
  }

  byId(id: number): VideoRow | undefined {
    return optionalVideoRow(this.db.prepare('SELECT * FROM videos WHERE id = ?').get(id));
  }

  /** A video of this account, never another's. */
  byNo(accountId: number, videoNo: string): VideoRow | undefined {
    return optionalVideoRow(
      this.db.prepare('SELECT * FROM videos WHERE video_no = ? AND account_id = ?').get(videoNo, accountId),
    );
  }

  tags(videoId: number): string[] {
    return this.db
      .prepare('SELECT tag FROM video_tags WHERE video_id = ? ORDER BY position')
      .pluck()
      .all(videoId)
      .map((tag) => z.string().parse(tag));
  }

  /** Uploads still waiting for the indexer that arrived within the window (the rolling queue cap). */
  queuedSince(accountId: number, since: number): number {
    return count(
      this.db
        .prepare("SELECT COUNT(*) AS n FROM videos WHERE account_id = ? AND status = 'UNPARSE' AND created_at >= ?")
        .get(accountId, since),
    );
  }

  /** Videos of the account whose original is still being fetched from a URL (UNPARSE without a blob). */
  fetching(accountId: number): number {
    return count(
      this.db
        .prepare("SELECT COUNT(*) AS n FROM videos WHERE account_id = ? AND status = 'UNPARSE' AND blob IS NULL")
        .get(accountId),
    );
  }

  /** Records the fetched original of a video; false when the video is gone or no longer waits for it. */
  attachOriginal(
    id: number,
    o: {
      blob: string;
      contentType: string;
      size: number;
      sha256: string;
      duration: number;
      width: number | null;
      height: number | null;
      fps: number | null;
      codec: string | null;
    },
  ): boolean {
    const res = this.db
      .prepare(
        `UPDATE videos SET blob = ?, content_type = ?, size = ?, sha256 = ?, duration = ?, width = ?, height = ?, fps = ?, codec = ?
         WHERE id = ? AND status = 'UNPARSE' AND blob IS NULL`,
      )
      .run(o.blob, o.contentType, o.size, o.sha256, o.duration, o.width, o.height, o.fps, o.codec, id);
    return res.changes === 1;
  }

  setProgress(id: number, progress: number): void {
    this.db.prepare("UPDATE videos SET progress = ? WHERE id = ? AND status = 'UNPARSE'").run(progress, id);
  }

  list(f: ListFilter): { rows: VideoRow[]; total: number } {
    const where = new Where('v.account_id = ?', f.accountId)
      .addIf(f.folderId, 'v.folder_id = ?', f.folderId ?? null)
      .addIf(f.status, 'v.status = ?', f.status ?? null)
      .addIf(f.videoNo, 'v.video_no = ?', f.videoNo ?? null)
      .addIf(
        f.videoName,
        "v.video_name LIKE ? ESCAPE '\\'",
        `%${(f.videoName ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      )
      .addIf(f.tag, 'EXISTS (SELECT 1 FROM video_tags t WHERE t.video_id = v.id AND t.tag = ?)', f.tag ?? null);
    const clause = where.sql;
    const args = where.args;
    const total = count(this.db.prepare(`SELECT COUNT(*) AS n FROM videos v WHERE ${clause}`).get(...args));
    const rows = this.db
      .prepare(`SELECT v.* FROM videos v WHERE ${clause} ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`)
      .all(...args, f.size, (f.page - 1) * f.size)
      .map(videoRow);
    return { rows, total };
  }

  delete(id: number): void {
    this.db.transaction(() => {
      const owner: unknown = this.db.prepare('SELECT account_id FROM videos WHERE id = ?').pluck().get(id);
      if (typeof owner === 'number') unindexVideo(this.db, owner, id);
      this.db
        .prepare('DELETE FROM segments_trigram WHERE rowid IN (SELECT id FROM segments WHERE video_id = ?)')
        .run(id);
      this.db.prepare('DELETE FROM videos WHERE id = ?').run(id);
    })();
  }

  metadata(row: VideoRow, publicFolderId: number): VideoMetadata {
    return {
      video_no: row.video_no,
      videoNo: row.video_no,
      video_name: row.video_name,
      original_name: row.original_name,
      status: row.status,
      progress: Math.round(row.progress * 10) / 10,
      fail_reason: row.fail_reason,
      duration: row.duration,
      size: row.size,
      width: row.width,
      height: row.height,
      fps: row.fps,
      codec: row.codec,
      create_time: String(row.created_at),
      datetime_taken: row.datetime_taken,
      camera_model: row.camera_model,
      latitude: row.latitude,
      longitude: row.longitude,
      tags: this.tags(row.id),
      folder_id: publicFolderId,
      video_bucket: row.bucket,
      video_blob: row.blob ?? '',
      poster_bucket: row.poster_blob ? row.bucket : null,
      poster_blob: row.poster_blob,
      missing_engines: missingEngines.parse(row.missing_engines),
    };
  }
}
