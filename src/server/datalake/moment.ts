import { PRICES_MICRO_USD } from '../../shared/api-types';
import type { VideoRow } from '../library/videos';
import type { Datalake } from './datalake';
import type { DlVideoRow } from './dl-videos';
import { conflict, invalid, missing } from './errors';

/** The longest slice one Get Moment call reads, in seconds: it bounds the answer, which has no pages. */
export const MOMENT_MAX_SECONDS = 600;

/**
 * Get Moment: the derived content of [start, end) of one video (segments, transcript words, safety events), free like
 * the other read calls, except that when it carries safety events it is billed like the events call (else it would be
 * a free way around that price). An item belongs to the slice when it overlaps it: item.start < end and item.end > start (an
 * instant item, start = end, when start <= item.start < end). `end` is clamped to the video's duration.
 */
export async function getMoment(dl: Datalake, accountId: number, id: string, start: number, askedEnd: number) {
  const video = await dl.videos.get(accountId, id);
  if (!video || video.status === 'cancelled') throw missing('video');
  const library = await indexedLibraryVideo(dl, video);
  const duration = library.duration;
  if (duration !== null && start >= duration)
    throw invalid(`start: must be before the end of the video (${duration} s)`);
  const end = duration === null ? askedEnd : Math.min(askedEnd, duration);
  const collection = await dl.collections.byId(video.collection_id);
  if (collection?.safety_detector)
    await dl.ctx.billing.charge(accountId, PRICES_MICRO_USD.safetyEventsCall, 'datalake moment with safety events', id);
  return {
    video_id: video.id,
    start,
    end,
    duration,
    live: video.status === 'processing' || video.status === 'uploading',
    segments: (await dl.ctx.videoIndex.segmentsIn(library.id, start, end)).map((s) => ({
      index: s.index,
      start: s.start,
      end: s.end,
      caption: s.caption,
      transcript: s.transcript,
      ocr_text: s.ocr_text,
      faces: s.faces,
      labels: s.labels,
      // Where the keyframe JPEG is stored, as interface A's search items give it (GET /download?bucket=&blob=).
      keyframe: s.keyframe_blob ? { bucket: library.bucket, blob: s.keyframe_blob } : null,
    })),
    words: await dl.ctx.videoIndex.wordsIn(library.id, start, end),
    // The slice's events in media-time order; events are few per video, and never paged here.
    safety_events: collection?.safety_detector ? await dl.events.overlapping(video.id, start, end) : null,
  };
}

export type MomentAnswer = Awaited<ReturnType<typeof getMoment>>;

/** The library row holding the video's index; 409 while there is none yet (or any more). */
async function indexedLibraryVideo(dl: Datalake, video: DlVideoRow): Promise<VideoRow> {
  const state = { status: video.status };
  if (video.status === 'deleting') throw conflict('the video is being deleted', state);
  const library = video.library_video_id ? await dl.ctx.videos.byId(video.library_video_id) : undefined;
  if (library?.status === 'PARSE') return library;
  if (video.status === 'failed') throw conflict('the video has no index: its ingest failed', state);
  throw conflict(
    `the video is not indexed yet (status ${video.status}); read its moments once its ingest operation reaches the derive stage or is done`,
    state,
  );
}
