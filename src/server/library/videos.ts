import { newVideoNo } from '../ingest/video-numbers';
import { z } from 'zod';
import { VIDEO_STATUSES, type VideoStatus } from '../../shared/api-types';
import { videoFullText } from '../search/segment-index';
import { countOf, optionalRow, parsedRows } from '../storage/rows';
import type { Sql } from '../storage/sql';
import { Where } from '../storage/where';

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

const tagRow = z.object({ video_id: int, tag: z.string() });
const accountRow = z.object({ account_id: int });

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

export class Videos {
  constructor(private readonly sql: Sql) {}

  /** Records a new UNPARSE video with its tags; `on` is the caller's transaction when it writes more beside it. */
  async insert(v: NewVideo, videoNo = newVideoNo(), on: Sql = this.sql): Promise<VideoRow> {
    return on.transaction(async (tx) => {
      const row = videoRowSchema.parse(
        await tx.get(
          `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, blob, content_type,
             size, sha256, duration, width, height, fps, codec, datetime_taken, camera_model, latitude, longitude, callback,
             retain_original, transcription_prompt, created_at)
           VALUES (?, ?, ?, ?, ?, 'UNPARSE', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           RETURNING *`,
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
        ),
      );
      for (const [position, tag] of v.tags.entries()) {
        await tx.run(
          'INSERT INTO video_tags (video_id, tag, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
          row.id,
          tag,
          position,
        );
      }
      return row;
    });
  }

  async byId(id: number, on: Sql = this.sql): Promise<VideoRow | undefined> {
    return optionalRow(videoRowSchema, await on.get('SELECT * FROM videos WHERE id = ?', id));
  }

  /** A video of this account, never another's. */
  async byNo(accountId: number, videoNo: string): Promise<VideoRow | undefined> {
    return optionalRow(
      videoRowSchema,
      await this.sql.get('SELECT * FROM videos WHERE video_no = ? AND account_id = ?', videoNo, accountId),
    );
  }

  async tags(videoId: number): Promise<string[]> {
    return (await this.tagsOf([videoId])).get(videoId) ?? [];
  }

  /** The tags of each video, in the order they were given (videos without tags left out). */
  async tagsOf(videoIds: readonly number[]): Promise<Map<number, string[]>> {
    const tags = new Map<number, string[]>();
    if (videoIds.length === 0) return tags;
    const rows = parsedRows(
      tagRow,
      await this.sql.all(
        `SELECT video_id, tag FROM video_tags WHERE video_id IN (${videoIds.map(() => '?').join(', ')})
         ORDER BY video_id, position`,
        ...videoIds,
      ),
    );
    for (const { video_id, tag } of rows) tags.set(video_id, [...(tags.get(video_id) ?? []), tag]);
    return tags;
  }

  /** Uploads still waiting for the indexer that arrived within the window (the rolling queue cap). */
  async queuedSince(accountId: number, since: number, on: Sql = this.sql): Promise<number> {
    return countOf(
      await on.get(
        "SELECT COUNT(*) AS n FROM videos WHERE account_id = ? AND status = 'UNPARSE' AND created_at >= ?",
        accountId,
        since,
      ),
    );
  }

  /** Videos of the account whose original is still being fetched from a URL (UNPARSE without a blob). */
  async fetching(accountId: number, on: Sql = this.sql): Promise<number> {
    return countOf(
      await on.get(
        "SELECT COUNT(*) AS n FROM videos WHERE account_id = ? AND status = 'UNPARSE' AND blob IS NULL",
        accountId,
      ),
    );
  }

  /** Records the fetched original of a video; false when the video is gone or no longer waits for it. */
  async attachOriginal(
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
  ): Promise<boolean> {
    const res = await this.sql.run(
      `UPDATE videos SET blob = ?, content_type = ?, size = ?, sha256 = ?, duration = ?, width = ?, height = ?, fps = ?, codec = ?
       WHERE id = ? AND status = 'UNPARSE' AND blob IS NULL`,
      o.blob,
      o.contentType,
      o.size,
      o.sha256,
      o.duration,
      o.width,
      o.height,
      o.fps,
      o.codec,
      id,
    );
    return res.changes === 1;
  }

  async setProgress(id: number, progress: number): Promise<void> {
    await this.sql.run("UPDATE videos SET progress = ? WHERE id = ? AND status = 'UNPARSE'", progress, id);
  }

  /** A page of the account's videos, newest first; `videoName` matches a part of the name in any letter case. */
  async list(f: ListFilter): Promise<{ rows: VideoRow[]; total: number }> {
    const where = new Where('v.account_id = ?', f.accountId)
      .addIf(f.folderId, 'v.folder_id = ?', f.folderId ?? null)
      .addIf(f.status, 'v.status = ?', f.status ?? null)
      .addIf(f.videoNo, 'v.video_no = ?', f.videoNo ?? null)
      .addIf(
        f.videoName,
        // lower() on both sides: SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
        "lower(v.video_name) LIKE lower(?) ESCAPE '\\'",
        `%${(f.videoName ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      )
      .addIf(f.tag, 'EXISTS (SELECT 1 FROM video_tags t WHERE t.video_id = v.id AND t.tag = ?)', f.tag ?? null);
    const clause = where.sql;
    const args = where.args;
    const total = countOf(await this.sql.get(`SELECT COUNT(*) AS n FROM videos v WHERE ${clause}`, ...args));
    const rows = parsedRows(
      videoRowSchema,
      await this.sql.all(
        `SELECT v.* FROM videos v WHERE ${clause} ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`,
        ...args,
        f.size,
        (f.page - 1) * f.size,
      ),
    );
    return { rows, total };
  }

  /**
   * Deletes a video with everything derived from it (tags, segments, words, faces cascade) and its full-text rows, in
   * one transaction (a savepoint inside the caller's, when `on` is one).
   */
  async delete(id: number, on: Sql = this.sql): Promise<void> {
    await on.transaction(async (tx) => {
      const owner = optionalRow(accountRow, await tx.get('SELECT account_id FROM videos WHERE id = ?', id));
      if (owner) await videoFullText.unindex(tx, owner.account_id, id);
      await tx.run('DELETE FROM videos WHERE id = ?', id);
    });
  }
}
