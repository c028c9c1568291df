import type { ExportItem } from './export-item';
import { framesOf, type Rate } from '../../../shared/timecode';

/**
 * An item's range in its media, whole frames of the media's rate counted from the media's first frame: the hit
 * [hitIn, hitOut) and the event [in, out) that goes on the timeline, the hit widened by the handles and clamped to the
 * media. Every export writer takes its numbers from here, so they all agree on every event and its handles.
 */
export interface SourceRange {
  rate: Rate;
  in: number;
  out: number;
  hitIn: number;
  hitOut: number;
  /** Frames the media holds, when known. */
  mediaFrames: number | null;
  /** `in` and `out` as timecode frame counts (the media's start timecode added). */
  tcIn: number;
  tcOut: number;
}

export function sourceRange(item: ExportItem): SourceRange {
  const { rate, offsetSeconds, durationSeconds, startFrame } = item.media;
  const mediaFrames = durationSeconds === null ? null : Math.max(1, framesOf(durationSeconds, rate));
  const limit = mediaFrames ?? Number.POSITIVE_INFINITY;
  const at = (seconds: number): number => framesOf(seconds - offsetSeconds, rate);
  const hitIn = Math.min(Math.max(0, at(item.start)), limit - 1);
  const hitOut = Math.min(Math.max(hitIn + 1, at(item.end)), limit);
  const handles = Math.max(0, framesOf(item.handles, rate));
  const from = Math.max(0, hitIn - handles);
  const to = Math.min(limit, hitOut + handles);
  return {
    rate,
    in: from,
    out: to,
    hitIn,
    hitOut,
    mediaFrames,
    tcIn: startFrame + from,
    tcOut: startFrame + to,
  };
}

/** Frames at `rate` converted to frames at `to` (the same duration, nearest frame). */
export function convertFrames(frames: number, rate: Rate, to: Rate): number {
  return framesOf((frames * rate.den) / rate.num, to);
}
