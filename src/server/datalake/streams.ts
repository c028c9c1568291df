import { z } from 'zod';
import type { Sql } from '../storage/sql';
import { jsonObjectColumn, optionalRow, parsedRows } from '../storage/rows';
import { iso } from './iso-time';
import { newestFirstPage, type NewestFirstKey, type Page, type PageRequest } from './paging';
import { newId } from './public-id';

const STREAM_STATUSES = ['starting', 'live', 'ended', 'failed', 'stopped'] as const;
export type StreamStatus = (typeof STREAM_STATUSES)[number];

/** A row of `dl_streams`, parsed as read (`metadata` as its object). */
export const streamRowSchema = z.object({
  id: z.string(),
  account_id: z.number().int(),
  collection_id: z.string(),
  source_url: z.string(),
  fps: z.number(),
  segment_seconds: z.number(),
  metadata: jsonObjectColumn,
  status: z.enum(STREAM_STATUSES),
  error_message: z.string().nullable(),
  segments: z.number().int(),
  next_offset: z.number(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type StreamRow = z.output<typeof streamRowSchema>;

/** The latest segments of a stream, as its record lists them. */
const segmentRowSchema = z.object({ id: z.string(), status: z.string(), stream_offset: z.number() });

export interface NewStream {
  accountId: number;
  collectionId: string;
  sourceUrl: string;
  fps: number;
  segmentSeconds: number;
  metadata: Record<string, unknown>;
}

/** Live pull sources: each is cut into segments, and each segment is ingested as a video of the stream's collection. */
export class Streams {
  constructor(private readonly sql: Sql) {}

  async create(s: NewStream): Promise<StreamRow> {
    const now = Date.now();
    const row = await this.sql.get(
      `INSERT INTO dl_streams (id, account_id, collection_id, source_url, fps, segment_seconds, metadata, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'starting', ?, ?) RETURNING *`,
      newId('str'),
      s.accountId,
      s.collectionId,
      s.sourceUrl,
      s.fps,
      s.segmentSeconds,
      JSON.stringify(s.metadata),
      now,
      now,
    );
    return streamRowSchema.parse(row);
  }

  async byId(id: string): Promise<StreamRow | undefined> {
    return optionalRow(streamRowSchema, await this.sql.get('SELECT * FROM dl_streams WHERE id = ?', id));
  }

  async get(accountId: number, id: string): Promise<StreamRow | undefined> {
    return optionalRow(
      streamRowSchema,
      await this.sql.get('SELECT * FROM dl_streams WHERE id = ? AND account_id = ?', id, accountId),
    );
  }

  /** Newest first. */
  list(accountId: number, request: PageRequest<NewestFirstKey>): Promise<Page<StreamRow>> {
    return newestFirstPage(this.sql, 'dl_streams', streamRowSchema, 'account_id = ?', [accountId], request);
  }

  async activeInCollection(collectionId: string): Promise<StreamRow[]> {
    return parsedRows(
      streamRowSchema,
      await this.sql.all(
        "SELECT * FROM dl_streams WHERE collection_id = ? AND status IN ('starting', 'live') ORDER BY created_at, id",
        collectionId,
      ),
    );
  }

  /** Moves to a new status unless the stream already ended for good (stopped, ended, failed stay). */
  async setStatus(id: string, status: StreamStatus, error: string | null = null): Promise<void> {
    await this.sql.run(
      "UPDATE dl_streams SET status = ?, error_message = ?, updated_at = ? WHERE id = ? AND status IN ('starting', 'live')",
      status,
      error,
      Date.now(),
      id,
    );
  }

  async addSegment(id: string, end: number): Promise<void> {
    await this.sql.run(
      `UPDATE dl_streams SET segments = segments + 1, next_offset = CASE WHEN next_offset > ? THEN next_offset ELSE ? END,
         status = CASE WHEN status = 'starting' THEN 'live' ELSE status END, updated_at = ?
       WHERE id = ?`,
      end,
      end,
      Date.now(),
      id,
    );
  }

  async record(row: StreamRow) {
    const videos = parsedRows(
      segmentRowSchema,
      await this.sql.all(
        'SELECT id, status, stream_offset FROM dl_videos WHERE stream_id = ? ORDER BY stream_offset DESC LIMIT 100',
        row.id,
      ),
    );
    return {
      stream_id: row.id,
      collection_id: row.collection_id,
      source_url: row.source_url,
      status: row.status,
      error: row.error_message,
      fps: row.fps,
      segment_seconds: row.segment_seconds,
      segments: row.segments,
      duration: Math.round(row.next_offset * 1000) / 1000,
      metadata: row.metadata,
      /** The latest segments (at most 100), newest first. */
      videos: videos.map((v) => ({ video_id: v.id, status: v.status, offset: v.stream_offset })),
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }
}
