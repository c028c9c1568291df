import type { CutFrame } from './scene-cuts';

export type PlannedFrame = { kind: 'cut'; file: string } | { kind: 'seek'; time: number };

export interface PlannedSegment {
  index: number;
  start: number;
  end: number;
  frame: PlannedFrame;
}

/** Boundaries closer than this to another (or to the end) are dropped: a 0.1 s segment helps nobody search. */
const MIN_SEGMENT_SECONDS = 0.25;

/**
 * Segments covering [0, duration) without gaps: a boundary at every cut keyframe, then ranges longer than
 * `maxSeconds` split evenly. Each segment uses a cut keyframe inside it when there is one, else a frame to seek to.
 */
export function planSegments(cuts: CutFrame[], durationSeconds: number, maxSeconds: number): PlannedSegment[] {
  if (!(durationSeconds > 0)) throw new Error(`cannot segment a video of duration ${durationSeconds}`);
  if (!(maxSeconds > 0)) throw new Error(`maxSegmentSeconds must be positive, got ${maxSeconds}`);
  const sorted = [...cuts].sort((a, b) => a.time - b.time);
  const bounds = [0];
  for (const cut of sorted) {
    const last = bounds[bounds.length - 1] ?? 0;
    if (cut.time - last >= MIN_SEGMENT_SECONDS && durationSeconds - cut.time >= MIN_SEGMENT_SECONDS)
      bounds.push(cut.time);
  }
  bounds.push(durationSeconds);

  const segments: PlannedSegment[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i] ?? 0;
    const to = bounds[i + 1] ?? durationSeconds;
    // The tiny tolerance keeps a 10.0000001 s range from becoming two 5 s halves.
    const pieces = Math.max(1, Math.ceil((to - from) / maxSeconds - 1e-6));
    for (let p = 0; p < pieces; p++) {
      const start = p === 0 ? from : from + ((to - from) * p) / pieces;
      const end = p === pieces - 1 ? to : from + ((to - from) * (p + 1)) / pieces;
      segments.push({ index: segments.length, start, end, frame: frameFor(sorted, start, end) });
    }
  }
  return segments;
}

function frameFor(cuts: CutFrame[], start: number, end: number): PlannedFrame {
  // The first segment owns the first keyframe even when the stream starts a few ms late.
  const inside = cuts.find((c) => c.time >= start - (start === 0 ? MIN_SEGMENT_SECONDS : 1e-3) && c.time < end);
  if (inside) return { kind: 'cut', file: inside.file };
  return { kind: 'seek', time: start + Math.min(0.5, (end - start) / 2) };
}
