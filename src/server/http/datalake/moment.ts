import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRICES_MICRO_USD } from '../../../shared/api-types';
import type { Datalake } from '../../datalake/datalake';
import type { DlVideoRow } from '../../datalake/dl-videos';
import { invalid, missing } from '../../datalake/errors';
import type { SafetyEvent } from '../../datalake/events';
import type { Label } from '../../indexer/types';
import type { VideoRow } from '../../library/videos';
import type { Db } from '../../storage/db';
import { accountOf } from '../library/auth';
import { conflict, idParam, parse } from './parse';

/** The longest slice one Get Moment call reads, in seconds: it bounds the answer, which has no pages. */
export const MOMENT_MAX_SECONDS = 600;

const seconds = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required (seconds)' : 'must be one number of seconds') })
  .trim()
  .min(1, 'is required (seconds)')
  .regex(/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i, 'must be a number of seconds')
  .transform(Number)
  .pipe(z.number({ error: 'must be a number of seconds' }).min(0, 'must be 0 or more'));

const momentQuery = z
  .object({ start: seconds, end: seconds })
  .strict()
  .refine((q) => q.end > q.start, { message: 'must be after start', path: ['end'] })
  .refine((q) => q.end - q.start <= MOMENT_MAX_SECONDS, {
    message: `the slice may be at most ${MOMENT_MAX_SECONDS} s long`,
    path: ['end'],
  });

/**
 * Get Moment: the derived content of [start, end) of one video (segments, transcript words, safety events), free like
 * the other read calls, except that when it carries safety events it is billed like the events call (else it would be
 * a free way around that price). An item belongs to the slice when it overlaps it: item.start < end and item.end > start (an
 * instant item, start = end, when start <= item.start < end). `end` is clamped to the video's duration.
 */
export function registerMoment(app: FastifyInstance, dl: Datalake): void {
  app.get('/videos/:id/moment', async (request) => {
    const account = accountOf(request);
    const { id } = parse(idParam, request.params);
    const q = parse(momentQuery, request.query);
    const video = dl.videos.get(account.id, id);
    if (!video || video.status === 'cancelled') throw missing('video');
    const library = indexedLibraryVideo(dl, video);
    const duration = library.duration;
    if (duration !== null && q.start >= duration)
      throw invalid(`start: must be before the end of the video (${duration} s)`);
    const end = duration === null ? q.end : Math.min(q.end, duration);
    const collection = dl.collections.byId(video.collection_id);
    if (collection?.safety_detector)
      dl.ctx.billing.charge(account.id, PRICES_MICRO_USD.safetyEventsCall, 'datalake moment with safety events', id);
    return {
      video_id: video.id,
      start: q.start,
      end,
      duration,
      live: video.status === 'processing' || video.status === 'uploading',
      segments: segmentsIn(dl.ctx.db, library, q.start, end),
      words: wordsIn(dl.ctx.db, library.id, q.start, end),
      safety_events: collection?.safety_detector ? eventsIn(dl, video.id, q.start, end) : null,
    };
  });
}

/** The library row holding the video's index; 409 while there is none yet (or any more). */
function indexedLibraryVideo(dl: Datalake, video: DlVideoRow): VideoRow {
  const state = { status: video.status };
  if (video.status === 'deleting') throw conflict('the video is being deleted', state);
  const library = video.library_video_id ? dl.ctx.videos.byId(video.library_video_id) : undefined;
  if (library?.status === 'PARSE') return library;
  if (video.status === 'failed') throw conflict('the video has no index: its ingest failed', state);
  throw conflict(
    `the video is not indexed yet (status ${video.status}); read its moments once its ingest operation reaches the derive stage or is done`,
    state,
  );
}

/** The overlap rule of the doc comment above, over start_time and end_time (of table alias `t`); binds end, start, start. */
const overlaps = (t = ''): string => `${t}start_time < ? AND (${t}end_time > ? OR ${t}start_time >= ?)`;

/** A segments row under the answer's names (labels still JSON text), with the number of faces found in it. */
type SegmentRow = Record<'index' | 'start' | 'end' | 'faces', number> &
  Record<'caption' | 'transcript' | 'ocr_text' | 'labels', string> & { keyframe_blob: string | null };

function segmentsIn(db: Db, library: VideoRow, start: number, end: number) {
  const rows = db
    .prepare(
      `SELECT s.idx AS "index", s.start_time AS "start", s.end_time AS "end", s.caption, s.transcript, s.ocr_text, COUNT(f.id) AS faces,
              s.labels, s.keyframe_blob
       FROM segments s LEFT JOIN faces f ON f.video_id = s.video_id AND f.segment_idx = s.idx
       WHERE s.video_id = ? AND ${overlaps('s.')}
       GROUP BY s.id ORDER BY s.start_time, s.idx`,
    )
    .all(library.id, end, start, start) as SegmentRow[];
  return rows.map(({ labels, keyframe_blob, ...segment }) => ({
    ...segment,
    labels: (JSON.parse(labels) as Label[]).map((l) => ({ label: l.label, score: l.score, source: l.source })),
    // Where the keyframe JPEG is stored, as interface A's search items give it (GET /download?bucket=&blob=).
    keyframe: keyframe_blob ? { bucket: library.bucket, blob: keyframe_blob } : null,
  }));
}

function wordsIn(
  db: Db,
  libraryVideoId: number,
  start: number,
  end: number,
): { word: string; start: number; end: number }[] {
  return db
    .prepare(
      `SELECT word, start_time AS "start", end_time AS "end" FROM transcript_words WHERE video_id = ? AND ${overlaps()} ORDER BY idx`,
    )
    .all(libraryVideoId, end, start, start) as { word: string; start: number; end: number }[];
}

/** The slice's events in media-time order; events are few per video, and never paged here. */
function eventsIn(dl: Datalake, videoId: string, start: number, end: number): SafetyEvent[] {
  return dl.events.overlapping(videoId, start, end);
}
