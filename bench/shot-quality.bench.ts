import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeVideo, createAnalyzers } from '../src/server/indexer/analyze-video';
import { colourLabels } from '../src/server/indexer/analyzers/colour';
import { shotQuality } from '../src/server/indexer/analyzers/shot-quality';
import type { FrameAnalyzer } from '../src/server/indexer/types';
import { cpuSeconds } from './cpu-time';
import { cutEvery4sClip } from './cut-clip';
import { compare, type BenchResult, type Benchmark } from './harness';
import { benchClip } from './titled-clip';

/** Each measure is repeated on every keyframe this many times: one run of either is well under a millisecond. */
const REPEATS = 20;

/** CPU seconds (this thread, user + system) of `REPEATS` runs of `fn`, per run. */
function cpuPerRun(fn: () => unknown): number {
  const start = process.cpuUsage();
  for (let i = 0; i < REPEATS; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6 / REPEATS;
}

/**
 * What measuring shot quality adds to indexing: its CPU on every keyframe the indexer decodes of the 60 s titled take
 * and of the clip cut every 4 s, against the colour labels computed on the same pixels (the analyzer it runs in), and
 * as a share of indexing the same clip with every analyzer (CPU of every thread and child process).
 */
const bench: Benchmark = {
  name: 'shot-quality',
  description: 'CPU of the shot quality measure per minute of footage, against colour labels and whole indexing',
  async run() {
    const results: BenchResult[] = [];
    const scratch = await mkdtemp(join(tmpdir(), 'reelsync-shot-quality-'));
    const analyzers = createAnalyzers();
    try {
      for (const a of analyzers) await a.available();
      const clips = { '60 s titled take': await benchClip(), 'clip cut every 4 s': await cutEvery4sClip() };
      for (const [i, [name, clip]] of Object.entries(clips).entries()) {
        const spent = { quality: 0, colour: 0, frames: 0 };
        const timing: FrameAnalyzer = {
          kind: 'frame',
          name: 'timing',
          version: '1',
          available: () => Promise.resolve({ ok: true }),
          analyze: async (segment) => {
            const rgb = await segment.rgb();
            spent.quality += cpuPerRun(() => shotQuality(rgb, segment.width, segment.height));
            spent.colour += cpuPerRun(() => colourLabels(rgb, segment.width, segment.height));
            spent.frames++;
            return {};
          },
          close: () => Promise.resolve(),
        };
        const dir = (run: string) => mkdir(join(scratch, `${i}-${run}`)).then(() => join(scratch, `${i}-${run}`));
        const { durationSeconds } = await analyzeVideo({
          videoPath: clip,
          workDir: await dir('t'),
          analyzers: [timing],
        });
        const before = cpuSeconds();
        await analyzeVideo({ videoPath: clip, workDir: await dir('all'), analyzers });
        const indexing = cpuSeconds() - before;
        const perMinute = (s: number): string => `${((s * 1000 * 60) / durationSeconds).toFixed(1)} CPU ms/min`;
        results.push(
          compare(
            `${name} (${spent.frames} keyframes): shot quality against colour labels on the same pixels`,
            { label: 'shot quality', seconds: spent.quality },
            { label: 'colour labels', seconds: spent.colour },
          ),
          {
            what: `${name}: per minute of footage`,
            lines: [
              `shot quality ${perMinute(spent.quality)}, colour labels ${perMinute(spent.colour)}, ` +
                `whole indexing ${perMinute(indexing)}: shot quality is ` +
                `${((spent.quality / indexing) * 100).toFixed(3)}% of indexing`,
            ],
          },
        );
      }
    } finally {
      await Promise.all(analyzers.map((a) => a.close()));
      await rm(scratch, { recursive: true, force: true });
    }
    return results;
  },
};

export default bench;
