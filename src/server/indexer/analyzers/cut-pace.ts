import type { Label } from '../types';
import { ACTIVITY_SOURCE } from './motion';
import { descriptor } from './pixel-analyzer';

/** The stretch around a segment's middle over which cuts are counted, in seconds. */
const WINDOW_SECONDS = 10;
/** Cuts per second from which a stretch is "fast cuts": a shot every 2 s or shorter. */
const FAST_RATE = 0.5;
/**
 * Segment boundaries are cuts, and also splits of long shots (at most one per half a maximum segment length). Under
 * this maximum length splits alone could reach the fast rate, so nothing is said.
 */
const MIN_MAX_SEGMENT_SECONDS = 5;

/**
 * "fast cuts" for each segment in a stretch with many cuts (scene-cut density): the boundaries within WINDOW_SECONDS
 * around the segment's middle, per second of that window. Segments must be in time order and cover the video.
 */
export function cutPaceLabels(segments: { start: number; end: number }[], maxSegmentSeconds: number): Label[][] {
  if (maxSegmentSeconds < MIN_MAX_SEGMENT_SECONDS) return segments.map(() => []);
  const videoEnd = segments[segments.length - 1]?.end ?? 0;
  const cuts = segments.slice(1).map((s) => s.start);
  return segments.map((segment) => {
    const middle = (segment.start + segment.end) / 2;
    const from = Math.max(0, Math.min(middle - WINDOW_SECONDS / 2, videoEnd - WINDOW_SECONDS));
    const to = Math.min(videoEnd, from + WINDOW_SECONDS);
    const seconds = to - from;
    if (seconds <= 0) return [];
    const rate = cuts.filter((t) => t > from && t < to).length / seconds;
    return rate >= FAST_RATE ? [descriptor('fast cuts', rate, ACTIVITY_SOURCE)] : [];
  });
}
