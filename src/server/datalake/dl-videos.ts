import { z } from 'zod';
import type { Db } from '../storage/db';
import { jsonObjectColumn, optionalRow, parsedRows } from '../storage/rows';
import { newestFirstPageOnDb, type NewestFirstKey, type Page, type PageRequest } from './paging';

const DL_VIDEO_STATUSES = ['uploading', 'processing', 'ready', 'failed', 'cancelled', 'deleting'] as const;
export type DlVideoStatus = (typeof DL_VIDEO_STATUSES)[number];
const SOURCE_TYPES = ['url', 'file', 'resumable', 'stream'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** A row of `dl_videos`, parsed as read (`metadata` as its object). */
export const dlVideoRowSchema = z.object({
  id: z.string(),
  account_id: z.number().int(),
  collection_id: z.string(),
  library_video_id: z.number().int().nullable(),
  status: z.enum(DL_VIDEO_STATUSES),
  source_type: z.enum(SOURCE_TYPES),
  source_url: z.string().nullable(),
  filename: z.string(),
  content_type: z.string().nullable(),
  upload_size: z.number().int().nullable(),
  fps: z.number(),
  metadata: jsonObjectColumn,
  callback_url: z.string().nullable(),
  idempotency_key: z.string().nullable(),
  operation_id: z.string().nullable(),
  stream_id: z.string().nullable(),
  stream_offset: z.number().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type DlVideoRow = z.output<typeof dlVideoRowSchema>;

export interface NewDlVideo {
  id: string;
  accountId: number;
  collectionId: string;
  status: DlVideoStatus;
  sourceType: SourceType;
  sourceUrl: string | null;
  filename: string;
  contentType: string | null;
  uploadSize: number | null;
  fps: number;
  metadata: Record<string, unknown>;
  callbackUrl: string | null;
  idempotencyKey: string | null;
  /** A segment of a live stream, and where it starts in the stream (seconds). */
  stream?: { id: string; offset: number };
}

/** Datalake view of a video; the library's `videos` row (search index, blobs) is linked once preprocessing stored it. */
export class DlVideos {
  constructor(private readonly db: Db) {}

  insert(v: NewDlVideo): DlVideoRow {
    const now = Date.now();
    this.db
      .prepare(
        `INSERT INTO dl_videos (id, account_id, collection_id, status, source_type, source_url, filename, content_type, upload_size, fps,
           metadata, callback_url, idempotency_key, stream_id, stream_offset, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        v.id,
        v.accountId,
        v.collectionId,
        v.status,
        v.sourceType,
        v.sourceUrl,
        v.filename,
        v.contentType,
        v.uploadSize,
        v.fps,
        JSON.stringify(v.metadata),
        v.callbackUrl,
        v.idempotencyKey,
        v.stream?.id ?? null,
        v.stream?.offset ?? null,
        now,
        now,
      );
    return this.byId(v.id)!;
  }

  byId(id: string): DlVideoRow | undefined {
    return optionalRow(dlVideoRowSchema, this.db.prepare('SELECT * FROM dl_videos WHERE id = ?').get(id));
  }

  get(accountId: number, id: string): DlVideoRow | undefined {
    return optionalRow(
      dlVideoRowSchema,
      this.db.prepare('SELECT * FROM dl_videos WHERE id = ? AND account_id = ?').get(id, accountId),
    );
  }

  byIdempotencyKey(accountId: number, key: string): DlVideoRow | undefined {
    return optionalRow(
      dlVideoRowSchema,
      this.db.prepare('SELECT * FROM dl_videos WHERE account_id = ? AND idempotency_key = ?').get(accountId, key),
    );
  }

  inCollection(collectionId: string): DlVideoRow[] {
    return parsedRows(
      dlVideoRowSchema,
      this.db.prepare('SELECT * FROM dl_videos WHERE collection_id = ?').all(collectionId),
    );
  }

  /** Newest first, cancelled ingests left out. */
  list(accountId: number, collectionId: string | undefined, request: PageRequest<NewestFirstKey>): Page<DlVideoRow> {
    return newestFirstPageOnDb(
      this.db,
      'dl_videos',
      dlVideoRowSchema,
      "account_id = ? AND status != 'cancelled' AND (? IS NULL OR collection_id = ?)",
      [accountId, collectionId ?? null, collectionId ?? ''],
      request,
    );
  }

  /** Resumable upload sessions still receiving bytes (created, not finalized): one account's, or all. */
  openUploads(accountId?: number): DlVideoRow[] {
    return parsedRows(
      dlVideoRowSchema,
      this.db
        .prepare(
          "SELECT * FROM dl_videos WHERE source_type = 'resumable' AND status = 'uploading' AND (? IS NULL OR account_id = ?) ORDER BY updated_at",
        )
        .all(accountId ?? null, accountId ?? null),
    );
  }

  /** Whether a segment cut from this stream is still being ingested. */
  processingInStream(streamId: string): boolean {
    return (
      this.db.prepare("SELECT 1 FROM dl_videos WHERE stream_id = ? AND status = 'processing' LIMIT 1").get(streamId) !==
      undefined
    );
  }

  /** Records activity on a row (a chunk received), for the idle expiry of upload sessions. */
  touch(id: string): void {
    this.db.prepare('UPDATE dl_videos SET updated_at = ? WHERE id = ?').run(Date.now(), id);
  }

  setStatus(id: string, status: DlVideoStatus): void {
    this.db.prepare('UPDATE dl_videos SET status = ?, updated_at = ? WHERE id = ?').run(status, Date.now(), id);
  }

  link(id: string, libraryVideoId: number): void {
    this.db
      .prepare('UPDATE dl_videos SET library_video_id = ?, updated_at = ? WHERE id = ?')
      .run(libraryVideoId, Date.now(), id);
  }

  setOperation(id: string, operationId: string): void {
    this.db
      .prepare('UPDATE dl_videos SET operation_id = ?, updated_at = ? WHERE id = ?')
      .run(operationId, Date.now(), id);
  }

  remove(id: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM dl_events WHERE video_id = ?').run(id);
      this.db.prepare('DELETE FROM dl_safety_frames WHERE video_id = ?').run(id);
      this.db.prepare('DELETE FROM dl_face_entities WHERE video_id = ?').run(id);
      this.db.prepare('DELETE FROM dl_videos WHERE id = ?').run(id);
    })();
  }
}
