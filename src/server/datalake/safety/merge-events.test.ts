import { describe, expect, it } from 'vitest';
import { EventMerger, unsafeScore } from './merge-events';
import type { FrameScores } from './nsfw-engine';

const frame = (t: number, porn: number, sexy = 0): { t: number; scores: FrameScores } => ({
  t,
  scores: { Drawing: 0, Hentai: 0, Neutral: 1 - porn - sexy, Porn: porn, Sexy: sexy },
});

describe('EventMerger', () => {
  it('joins consecutive hits and closes on the first miss', () => {
    const m = new EventMerger(0.5, 1, 30);
    expect(m.push(frame(0, 0.1))).toEqual([]);
    expect(m.push(frame(1, 0.6))).toEqual([]);
    expect(m.push(frame(2, 0.2, 0.9))).toEqual([]);
    const closed = m.push(frame(3, 0.1));
    expect(closed).toEqual([{ start: 1, end: 3, score: 0.9, className: 'Sexy', peakAt: 2, frames: 2 }]);
    expect(m.finish(4)).toEqual([]);
  });

  it('splits long ranges at maxSeconds and clips the last one to the duration', () => {
    const m = new EventMerger(0, 0.5, 1);
    const out = [0, 0.5, 1, 1.5, 2].flatMap((t) => m.push(frame(t, 0.01)));
    expect(out.map((r) => [r.start, r.end])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(m.finish(2.2).map((r) => [r.start, r.end])).toEqual([[2, 2.2]]);
  });

  it('scores a frame by its most likely unsafe class', () => {
    expect(unsafeScore(frame(0, 0.3, 0.4).scores)).toEqual({ score: 0.4, className: 'Sexy' });
  });
});
