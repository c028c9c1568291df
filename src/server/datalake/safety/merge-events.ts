import type { FrameScores, SafetyClass } from './nsfw-engine';

export const UNSAFE_CLASSES = ['Porn', 'Hentai', 'Sexy'] as const satisfies readonly SafetyClass[];

export interface ScoredFrame {
  t: number;
  scores: FrameScores;
}

export interface SafetyRange {
  start: number;
  end: number;
  /** Highest unsafe score inside the range. */
  score: number;
  /** The unsafe class behind that score, and when it peaked. */
  className: SafetyClass;
  peakAt: number;
  frames: number;
}

/** A frame's unsafe score: its most likely unsafe class. */
export function unsafeScore(scores: FrameScores): { score: number; className: SafetyClass } {
  let best: { score: number; className: SafetyClass } = { score: 0, className: 'Porn' };
  for (const c of UNSAFE_CLASSES) if (scores[c] > best.score) best = { score: scores[c], className: c };
  return best;
}

/**
 * Turns sampled frames (in time order) into time ranges: consecutive frames at or above the threshold join one range,
 * which closes at the first frame below it, at the end of the video, or once it spans maxSeconds. A range covers its
 * frames plus one sampling interval, since a frame stands for the time until the next sample.
 */
export class EventMerger {
  private open: SafetyRange | null = null;

  constructor(
    private readonly threshold: number,
    private readonly interval: number,
    private readonly maxSeconds: number,
  ) {}

  /** Returns the ranges this frame closed (zero, one, or two when a long range split). */
  push(frame: ScoredFrame): SafetyRange[] {
    const closed: SafetyRange[] = [];
    const { score, className } = unsafeScore(frame.scores);
    const hit = score >= this.threshold;
    if (this.open && (!hit || frame.t - this.open.start >= this.maxSeconds - 1e-9)) {
      closed.push(this.open);
      this.open = null;
    }
    if (!hit) return closed;
    const end = frame.t + this.interval;
    if (!this.open) {
      this.open = { start: frame.t, end, score, className, peakAt: frame.t, frames: 1 };
      return closed;
    }
    this.open.end = end;
    this.open.frames += 1;
    if (score > this.open.score) Object.assign(this.open, { score, className, peakAt: frame.t });
    return closed;
  }

  /** Closes the open range at the end of the video. */
  finish(durationSeconds: number): SafetyRange[] {
    const open = this.open;
    this.open = null;
    if (!open) return [];
    return [{ ...open, end: Math.max(open.start, Math.min(open.end, durationSeconds)) }];
  }
}
