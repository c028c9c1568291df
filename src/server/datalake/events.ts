import { z } from 'zod';
import type { Sql } from '../storage/sql';
import { countOf, parsedRows } from '../storage/rows';
import { mediaTimePage, type MediaTimeKey, type Page, type PageRequest } from './paging';
import { newId } from './public-id';
import type { FrameScores } from './safety/nsfw-engine';

export interface SafetyEvent {
  event_id: string;
  event_type: 'safety';
  start: number;
  end: number;
  score: number;
  description: string;
  detector_id: string;
  detector_version: string;
}

/** A row of `dl_events` (the columns read back), parsed as read. */
const eventRowSchema = z.object({
  seq: z.number().int(),
  id: z.string(),
  start_time: z.number(),
  end_time: z.number(),
  score: z.number(),
  description: z.string(),
  detector_id: z.string(),
  detector_version: z.string(),
});
type EventRow = z.output<typeof eventRowSchema>;
/** An event of a stream's segment, with the segment it belongs to. */
const streamEventRowSchema = eventRowSchema.extend({ video_id: z.string() });
const frameSummaryRowSchema = z.object({ n: z.number().int(), m: z.number().nullable() });

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** Safety events (immutable once written, in media-time order) and the per-frame scores behind them. */
export class Events {
  constructor(private readonly sql: Sql) {}

  async add(
    videoId: string,
    e: { start: number; end: number; score: number; description: string; detectorId: string; detectorVersion: string },
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO dl_events (id, video_id, event_type, start_time, end_time, score, description, detector_id, detector_version, created_at)
       VALUES (?, ?, 'safety', ?, ?, ?, ?, ?, ?, ?)`,
      newId('evt'),
      videoId,
      round3(e.start),
      round3(e.end),
      e.score,
      e.description,
      e.detectorId,
      e.detectorVersion,
      Date.now(),
    );
  }

  async addFrame(videoId: string, t: number, unsafe: number, scores: FrameScores): Promise<void> {
    await this.sql.run(
      `INSERT INTO dl_safety_frames (video_id, t, unsafe, scores) VALUES (?, ?, ?, ?)
       ON CONFLICT (video_id, t) DO UPDATE SET unsafe = excluded.unsafe, scores = excluded.scores`,
      videoId,
      round3(t),
      unsafe,
      JSON.stringify(scores),
    );
  }

  /** Restarting a derive starts the video's safety output over. */
  async clear(videoId: string): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.run('DELETE FROM dl_events WHERE video_id = ?', videoId);
      await tx.run('DELETE FROM dl_safety_frames WHERE video_id = ?', videoId);
    });
  }

  /** Events starting at or after `since` seconds, in (start, seq) order. */
  async page(
    videoId: string,
    since: number | undefined,
    request: PageRequest<MediaTimeKey>,
  ): Promise<Page<SafetyEvent>> {
    const page = await mediaTimePage(
      this.sql,
      eventRowSchema,
      {
        sql: 'SELECT * FROM dl_events WHERE video_id = ? AND start_time >= ?',
        args: [videoId, since ?? 0],
        start: 'start_time',
        seq: 'seq',
      },
      request,
    );
    return { rows: page.rows.map(toEvent), nextCursor: page.nextCursor };
  }

  /** Events that overlap [start, end) or begin inside it, in (start, seq) order. */
  async overlapping(videoId: string, start: number, end: number): Promise<SafetyEvent[]> {
    const rows = parsedRows(
      eventRowSchema,
      await this.sql.all(
        `SELECT * FROM dl_events WHERE video_id = ? AND start_time < ? AND (end_time > ? OR start_time >= ?)
         ORDER BY start_time, seq`,
        videoId,
        end,
        start,
        start,
      ),
    );
    return rows.map(toEvent);
  }

  /** Events of every segment of a stream, on the stream's timeline (segment offset added), oldest first. */
  async streamPage(
    streamId: string,
    since: number | undefined,
    request: PageRequest<MediaTimeKey>,
  ): Promise<Page<SafetyEvent & { video_id: string }>> {
    const page = await mediaTimePage(
      this.sql,
      streamEventRowSchema,
      {
        sql: `SELECT e.seq, e.id, e.start_time + v.stream_offset AS start_time, e.end_time + v.stream_offset AS end_time, e.score,
                     e.description, e.detector_id, e.detector_version, e.video_id
              FROM dl_events e JOIN dl_videos v ON v.id = e.video_id
              WHERE v.stream_id = ? AND e.start_time + v.stream_offset >= ?`,
        args: [streamId, since ?? 0],
        start: 'e.start_time + v.stream_offset',
        seq: 'e.seq',
      },
      request,
    );
    return { rows: page.rows.map((r) => ({ ...toEvent(r), video_id: r.video_id })), nextCursor: page.nextCursor };
  }

  /** What the classifier saw: frames classified and the highest unsafe score among them. */
  async frameSummary(videoId: string): Promise<{ frames: number; maxUnsafe: number | null }> {
    const row = frameSummaryRowSchema.parse(
      await this.sql.get('SELECT COUNT(*) AS n, MAX(unsafe) AS m FROM dl_safety_frames WHERE video_id = ?', videoId),
    );
    return { frames: row.n, maxUnsafe: row.m };
  }

  async count(videoId: string): Promise<number> {
    return countOf(await this.sql.get('SELECT COUNT(*) AS n FROM dl_events WHERE video_id = ?', videoId));
  }
}

function toEvent(r: EventRow): SafetyEvent {
  return {
    event_id: r.id,
    event_type: 'safety',
    start: round3(r.start_time),
    end: round3(r.end_time),
    score: r.score,
    description: r.description,
    detector_id: r.detector_id,
    detector_version: r.detector_version,
  };
}
