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

  it('gives a keyframe-only analyzer its findings again on a segment showing the same picture, and runs the rest', async () => {
    // Segments 0-2 one still picture (1 differs by compression-like noise), 3 another picture, 4 the first again.
    const still = (noise: number): Uint8Array => new Uint8Array(16 * 16 * 3).map((_, i) => 100 + ((i * noise) % 5));
    const other = new Uint8Array(16 * 16 * 3).fill(200);
    const pictures = [still(0), still(3), still(0), other, still(0)];
    const released: number[] = [];
    const segments = frames(pictures.length, released).map((f, i) => ({
      ...f,
      width: 16,
      height: 16,
      rgb: () => Promise.resolve(pictures[i] ?? other),
    }));
    const keyframeRuns: number[] = [];
    const everyRuns: number[] = [];
    const keyframeOnly: FrameAnalyzer = {
      ...analyzer('detector', keyframeRuns, 0),
      keyframeOnly: true,
      analyze: async (segment) => {
        keyframeRuns.push(segment.index);
        return { labels: [{ label: `seen on ${segment.index}`, score: 1, source: 'detector' }] };
      },
    };
    const outcome = await runAnalyzers({
      analyzers: [keyframeOnly, analyzer('motion', everyRuns, 0)],
      frames: segments,
      media,
      onFraction: () => {},
    });
    expect(keyframeRuns).toEqual([0, 3, 4]);
    expect(everyRuns).toEqual([0, 1, 2, 3, 4]);
    const detected = outcome.findings.map((f) => f.labels.filter((l) => l.source === 'detector').map((l) => l.label));
    expect(detected).toEqual([['seen on 0'], ['seen on 0'], ['seen on 0'], ['seen on 3'], ['seen on 4']]);
    expect(released).toEqual([0, 1, 2, 3, 4]);
  });

  it('runs a keyframe-only analyzer again after it failed on the same picture', async () => {
    const segments = frames(3, []);
    const runs: number[] = [];
    const flaky: FrameAnalyzer = {
      ...analyzer('flaky', runs, 0),
      keyframeOnly: true,
      analyze: async (segment) => {
        runs.push(segment.index);
        if (segment.index === 0) throw new Error('model hiccup');
        return { labels: [{ label: 'thing', score: 1, source: 'flaky' }] };
      },
    };
    const outcome = await runAnalyzers({ analyzers: [flaky], frames: segments, media, onFraction: () => {} });
    expect(runs).toEqual([0, 1]);
    expect(outcome.failures).toEqual([{ analyzer: 'flaky', segmentIndex: 0, message: 'model hiccup' }]);
    expect(outcome.findings.map((f) => f.labels.length)).toEqual([0, 1, 1]);
  });
});
