import { describe, expect, it } from 'vitest';
import { MAX_LEAD_SEGMENTS, runAnalyzers } from './run-analyzers';
import type { FrameAnalyzer, FrameFindings, SegmentFrame } from './types';

const media = { videoPath: 'unused.mp4', workDir: '/tmp', durationSeconds: 30, hasAudio: false };

function frames(count: number, released: number[]): SegmentFrame[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    start: index,
    end: index + 1,
    keyframePath: `keyframe-${index}.jpg`,
    width: 2,
    height: 2,
    rgb: () => Promise.resolve(new Uint8Array(12)),
    release: () => {
      released.push(index);
      return Promise.resolve();
    },
  }));
}

/** A frame analyzer that records the segments it starts and takes `delayMs` on each. */
function analyzer(name: string, started: number[], delayMs: number): FrameAnalyzer {
  return {
    kind: 'frame',
    name,
    version: '1',
    available: () => Promise.resolve({ ok: true }),
    close: () => Promise.resolve(),
    analyze: async (segment): Promise<FrameFindings> => {
      started.push(segment.index);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { labels: [{ label: name, score: 1, source: name }] };
    },
  };
}

describe('runAnalyzers', () => {
  it('releases each segment once, after every frame analyzer is done with it, and keeps the fast one close', async () => {
    const released: number[] = [];
    const fast: number[] = [];
    const slow: number[] = [];
    const segments = frames(30, released);
    const slowAnalyzer = analyzer('slow', slow, 5);
    // When the slow analyzer starts segment n, the fast one may have started at most n + MAX_LEAD_SEGMENTS.
    const gaps: number[] = [];
    const watched: FrameAnalyzer = {
      ...slowAnalyzer,
      analyze: (segment) => {
        gaps.push(Math.max(...fast) - segment.index);
        expect(released.filter((i) => i >= segment.index)).toEqual([]);
        return slowAnalyzer.analyze(segment);
      },
    };
    const outcome = await runAnalyzers({
      analyzers: [analyzer('fast', fast, 0), watched],
      frames: segments,
      media,
      onFraction: () => {},
    });
    expect(released).toEqual(segments.map((s) => s.index));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(MAX_LEAD_SEGMENTS);
    expect(Math.max(...gaps)).toBeGreaterThan(1);
    expect(outcome.findings.every((f) => f.labels.length === 2)).toBe(true);
  });

  it('stops an analyzer waiting for the slow one when the run is aborted', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const never: FrameAnalyzer = {
      ...analyzer('stuck', [], 0),
      analyze: (_segment, signal) =>
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')))),
    };
    const run = runAnalyzers({
      analyzers: [analyzer('fast', started, 0), never],
      frames: frames(30, []),
      media,
      signal: controller.signal,
      onFraction: () => {},
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toHaveLength(MAX_LEAD_SEGMENTS);
    controller.abort(new Error('stop'));
    await expect(run).rejects.toThrow('stop');
  });
});
