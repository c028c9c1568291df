import type { Availability, FrameAnalyzer, FrameFindings, Label, SegmentFrame } from '../types';

/** A descriptor label: its weight clamped to 0..1 and rounded to three decimals, like every stored score. */
export function descriptor(label: string, weight: number, source: string): Label {
  const clamped = Math.min(1, Math.max(0, weight));
  return { label, score: Math.round(clamped * 1000) / 1000, source };
}

/** A frame analyzer that only computes on the segment's pixels: no engine to load, nothing to free. */
export abstract class PixelAnalyzer implements FrameAnalyzer {
  readonly kind = 'frame';
  abstract readonly name: string;
  abstract readonly version: string;

  abstract analyze(segment: SegmentFrame): Promise<FrameFindings>;

  available(): Promise<Availability> {
    return Promise.resolve({ ok: true });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
