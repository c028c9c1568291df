import { z } from 'zod';
import type { Sql } from '../storage/sql';
import { jsonObjectColumn, optionalRow, parsedRows } from '../storage/rows';
import { newestFirstPage, type NewestFirstKey, type Page, type PageRequest } from './paging';

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

const videoCollectionRowSchema = z.object({ id: z.string(), collection_id: z.string() });

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

/**
 * Datalake view of a video; the library's `videos` row (search index, blobs) is linked once preprocessing stored it.
 * Methods a transaction also uses take the executor as `on` (the transaction's `tx`).
 */
export class DlVideos {
  constructor(private readonly sql: Sql) {}

  async insert(v: NewDlVideo, on: Sql = this.sql): Promise<DlVideoRow> {
    const now = Date.now();
    const row = await on.get(
      `INSERT INTO dl_videos (id, account_id, collection_id, status, source_type, source_url, filename, content_type, upload_size, fps,
         metadata, callback_url, idempotency_key, stream_id, stream_offset, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
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
    return dlVideoRowSchema.parse(row);
  }

  async byId(id: string, on: Sql = this.sql): Promise<DlVideoRow | undefined> {
    return optionalRow(dlVideoRowSchema, await on.get('SELECT * FROM dl_videos WHERE id = ?', id));
  }

  async get(accountId: number, id: string): Promise<DlVideoRow | undefined> {
    return optionalRow(
      dlVideoRowSchema,
      await this.sql.get('SELECT * FROM dl_videos WHERE id = ? AND account_id = ?', id, accountId),
    );
  }

  async byIdempotencyKey(accountId: number, key: string, on: Sql = this.sql): Promise<DlVideoRow | undefined> {
    return optionalRow(
      dlVideoRowSchema,
      await on.get('SELECT * FROM dl_videos WHERE account_id = ? AND idempotency_key = ?', accountId, key),
    );
  }

  /** The datalake videos made from a library video (one, or none for an interface A upload). */
  async fromLibraryVideo(libraryVideoId: number): Promise<DlVideoRow[]> {
    return parsedRows(
      dlVideoRowSchema,
      await this.sql.all('SELECT * FROM dl_videos WHERE library_video_id = ?', libraryVideoId),
    );
  }

  async inCollection(collectionId: string): Promise<DlVideoRow[]> {
    return parsedRows(
      dlVideoRowSchema,
      await this.sql.all('SELECT * FROM dl_videos WHERE collection_id = ? ORDER BY created_at, id', collectionId),
    );
  }

  /** The collection of each of these videos (one query for a page of search hits); absent ids are left out. */
  async collectionsOf(ids: readonly string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = parsedRows(
      videoCollectionRowSchema,
      await this.sql.all(
        `SELECT id, collection_id FROM dl_videos WHERE id IN (${unique.map(() => '?').join(', ')})`,
        ...unique,
      ),
    );
    return new Map(rows.map((r) => [r.id, r.collection_id]));
  }

  /** Newest first, cancelled ingests left out. */
  list(
    accountId: number,
    collectionId: string | undefined,
    request: PageRequest<NewestFirstKey>,
  ): Promise<Page<DlVideoRow>> {
    const inCollection = collectionId === undefined ? '' : ' AND collection_id = ?';
    return newestFirstPage(
      this.sql,
      'dl_videos',
      dlVideoRowSchema,
      `account_id = ? AND status != 'cancelled'${inCollection}`,
      collectionId === undefined ? [accountId] : [accountId, collectionId],
      request,
    );
  }

  /** Resumable upload sessions still receiving bytes (created, not finalized): one account's, or all. */
  async openUploads(accountId?: number, on: Sql = this.sql): Promise<DlVideoRow[]> {
    const open = "SELECT * FROM dl_videos WHERE source_type = 'resumable' AND status = 'uploading'";
    const order = ' ORDER BY updated_at, id';
    return parsedRows(
      dlVideoRowSchema,
      accountId === undefined
        ? await on.all(open + order)
        : await on.all(`${open} AND account_id = ?${order}`, accountId),
    );
  }

  /** Whether a segment cut from this stream is still being ingested. */
  async processingInStream(streamId: string): Promise<boolean> {
    const row = await this.sql.get(
      "SELECT 1 AS n FROM dl_videos WHERE stream_id = ? AND status = 'processing' LIMIT 1",
      streamId,
    );
    return row !== undefined;
  }

  /** Records activity on a row (a chunk received), for the idle expiry of upload sessions. */
  async touch(id: string): Promise<void> {
    await this.sql.run('UPDATE dl_videos SET updated_at = ? WHERE id = ?', Date.now(), id);
  }

  async setStatus(id: string, status: DlVideoStatus, on: Sql = this.sql): Promise<void> {
    await on.run('UPDATE dl_videos SET status = ?, updated_at = ? WHERE id = ?', status, Date.now(), id);
  }

  async link(id: string, libraryVideoId: number, on: Sql = this.sql): Promise<void> {
    await on.run(
      'UPDATE dl_videos SET library_video_id = ?, updated_at = ? WHERE id = ?',
      libraryVideoId,
      Date.now(),
      id,
    );
  }

  async setOperation(id: string, operationId: string, on: Sql = this.sql): Promise<void> {
    await on.run('UPDATE dl_videos SET operation_id = ?, updated_at = ? WHERE id = ?', operationId, Date.now(), id);
  }

  /**
   * Deletes an upload session that is still uploading and was not touched since `updatedAt` (what the idle sweep read):
   * false when a chunk or a finalize got there first.
   */
  async expireSession(id: string, updatedAt: number): Promise<boolean> {
    const { changes } = await this.sql.run(
      "DELETE FROM dl_videos WHERE id = ? AND source_type = 'resumable' AND status = 'uploading' AND updated_at = ?",
      id,
      updatedAt,
    );
    return changes === 1;
  }

  /** Removes the row with the safety output and face entities derived from it, in one transaction. */
  async remove(id: string, on: Sql = this.sql): Promise<void> {
    await on.transaction(async (tx) => {
      await tx.run('DELETE FROM dl_events WHERE video_id = ?', id);
      await tx.run('DELETE FROM dl_safety_frames WHERE video_id = ?', id);
      await tx.run('DELETE FROM dl_face_entities WHERE video_id = ?', id);
      await tx.run('DELETE FROM dl_videos WHERE id = ?', id);
    });
  }
}
