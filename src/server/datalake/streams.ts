import type { Db } from '../storage/db';
import { iso } from './iso-time';
import { newestFirstPage, type NewestFirstKey, type Page, type PageRequest } from './paging';
import { newId } from './public-id';

export type StreamStatus = 'starting' | 'live' | 'ended' | 'failed' | 'stopped';

export interface StreamRow {
  id: string;
  account_id: number;
  collection_id: string;
  source_url: string;
  fps: number;
  segment_seconds: number;
  metadata: string;
  status: StreamStatus;
  error_message: string | null;
  segments: number;
  next_offset: number;
  created_at: number;
  updated_at: number;
}

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
  constructor(private readonly db: Db) {}

  create(s: NewStream): StreamRow {
    const id = newId('str');
    const now = Date.now();
    this.db
      .prepare(
        `INSERT INTO dl_streams (id, account_id, collection_id, source_url, fps, segment_seconds, metadata, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'starting', ?, ?)`,
      )
      .run(id, s.accountId, s.collectionId, s.sourceUrl, s.fps, s.segmentSeconds, JSON.stringify(s.metadata), now, now);
    return this.byId(id)!;
  }

  byId(id: string): StreamRow | undefined {
    return this.db.prepare('SELECT * FROM dl_streams WHERE id = ?').get(id) as StreamRow | undefined;
  }

  get(accountId: number, id: string): StreamRow | undefined {
    return this.db.prepare('SELECT * FROM dl_streams WHERE id = ? AND account_id = ?').get(id, accountId) as
      StreamRow | undefined;
  }

  /** Newest first. */
  list(accountId: number, request: PageRequest<NewestFirstKey>): Page<StreamRow> {
    return newestFirstPage(this.db, 'dl_streams', 'account_id = ?', [accountId], request);
  }

  activeInCollection(collectionId: string): StreamRow[] {
    return this.db
      .prepare("SELECT * FROM dl_streams WHERE collection_id = ? AND status IN ('starting', 'live')")
      .all(collectionId) as StreamRow[];
  }

  /** Moves to a new status unless the stream already ended for good (stopped, ended, failed stay). */
  setStatus(id: string, status: StreamStatus, error: string | null = null): void {
    this.db
      .prepare(
        "UPDATE dl_streams SET status = ?, error_message = ?, updated_at = ? WHERE id = ? AND status IN ('starting', 'live')",
      )
      .run(status, error, Date.now(), id);
  }

  addSegment(id: string, end: number): void {
    this.db
      .prepare(
        "UPDATE dl_streams SET segments = segments + 1, next_offset = MAX(next_offset, ?), status = CASE WHEN status = 'starting' THEN 'live' ELSE status END, updated_at = ? WHERE id = ?",
      )
      .run(end, Date.now(), id);
  }

  record(row: StreamRow) {
    const videos = this.db
      .prepare(
        'SELECT id, status, stream_offset FROM dl_videos WHERE stream_id = ? ORDER BY stream_offset DESC LIMIT 100',
      )
      .all(row.id) as { id: string; status: string; stream_offset: number }[];
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
      metadata: JSON.parse(row.metadata) as Record<string, unknown>,
      /** The latest segments (at most 100), newest first. */
      videos: videos.map((v) => ({ video_id: v.id, status: v.status, offset: v.stream_offset })),
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }
}
