import { z } from 'zod';
import { parsedRows } from '../storage/rows';
import type { Sql } from '../storage/sql';

/** Labels as the indexer stores them (JSON text): the fields an answer carries. */
const labelsJson = z
  .string()
  .transform((text): unknown => JSON.parse(text))
  .pipe(z.array(z.object({ label: z.string(), score: z.number(), source: z.string().optional() })));

const transcriptRow = z.object({ transcript: z.string(), start_time: z.number(), end_time: z.number() });

/** A segments row under the moment answer's names, with the number of faces found in it. */
const momentSegmentRow = z.object({
  index: z.number().int(),
  start: z.number(),
  end: z.number(),
  caption: z.string(),
  transcript: z.string(),
  ocr_text: z.string(),
  faces: z.number().int(),
  labels: labelsJson,
  keyframe_blob: z.string().nullable(),
});
export type MomentSegmentRow = z.infer<typeof momentSegmentRow>;

const wordRow = z.object({ word: z.string(), start: z.number(), end: z.number() });
export type WordRow = z.infer<typeof wordRow>;

/**
 * An item overlaps [start, end) when item.start < end and item.end > start; an instant item (start = end) when
 * start <= item.start < end. Over start_time and end_time (of table alias `t`); binds end, start, start.
 */
const overlaps = (t = ''): string => `${t}start_time < ? AND (${t}end_time > ? OR ${t}start_time >= ?)`;

/** Reads of what the indexer derived from one library video: segments, transcript words, faces per segment. */
export class VideoIndex {
  constructor(private readonly sql: Sql) {}

  /** The transcript lines of a video, in segment order (segments without speech left out). */
  async transcript(videoId: number): Promise<z.infer<typeof transcriptRow>[]> {
    return parsedRows(
      transcriptRow,
      await this.sql.all(
        "SELECT transcript, start_time, end_time FROM segments WHERE video_id = ? AND transcript != '' ORDER BY idx",
        videoId,
      ),
    );
  }

  /** The segments overlapping [start, end), in media-time order. */
  async segmentsIn(videoId: number, start: number, end: number): Promise<MomentSegmentRow[]> {
    return parsedRows(
      momentSegmentRow,
      await this.sql.all(
        `SELECT s.idx AS "index", s.start_time AS "start", s.end_time AS "end", s.caption, s.transcript, s.ocr_text,
                COUNT(f.id) AS faces, s.labels, s.keyframe_blob
         FROM segments s LEFT JOIN faces f ON f.video_id = s.video_id AND f.segment_idx = s.idx
         WHERE s.video_id = ? AND ${overlaps('s.')}
         GROUP BY s.id ORDER BY s.start_time, s.idx`,
        videoId,
        end,
        start,
        start,
      ),
    );
  }

  /** The transcript words overlapping [start, end), in spoken order. */
  async wordsIn(videoId: number, start: number, end: number): Promise<WordRow[]> {
    return parsedRows(
      wordRow,
      await this.sql.all(
        `SELECT word, start_time AS "start", end_time AS "end" FROM transcript_words
         WHERE video_id = ? AND ${overlaps()} ORDER BY idx`,
        videoId,
        end,
        start,
        start,
      ),
    );
  }
}
