import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeVideo, createAnalyzers } from '../src/server/indexer/analyze-video';
import type { Analyzer, FrameAnalyzer } from '../src/server/indexer/types';
import { cutEvery4sClip } from './cut-clip';
import { cpuSeconds } from './cpu-time';
import { benchClip } from './titled-clip';

/**
 * Where indexing's CPU goes, per stage, in CPU ms per minute of footage (`npx tsx bench/index-profile.ts`): the
 * segmenting passes alone (probe, scene cuts, keyframes), then the pixels every frame analyzer reads (keyframe decode,
 * the later frame), then each analyzer run alone on top of those, then all of them together. CPU time (every thread
 * and child process) rather than wall time: the machine is shared, and wall time measures the others' load.
 */

/** Reads what the frame analyzers read (keyframe pixels, the later frame's pixels) and finds nothing. */
const pixelsOnly: FrameAnalyzer = {
  kind: 'frame',
  name: 'pixels',
  version: '1',
  available: () => Promise.resolve({ ok: true }),
  analyze: async (segment) => {
    await segment.rgb();
    await (await segment.laterFrame?.())?.rgb();
    return {};
  },
  close: () => Promise.resolve(),
};

async function main(): Promise<void> {
  const clips = { '60 s titled': await benchClip(), 'cut every 4 s': await cutEvery4sClip() };
  const analyzers = createAnalyzers();
  for (const a of analyzers) await a.available();
  const scratch = await mkdtemp(join(tmpdir(), 'reelsync-index-profile-'));
  let runs = 0;
  const measure = async (
    video: string,
    chosen: Analyzer[],
  ): Promise<{ cpu: number; wall: number; durationSeconds: number }> => {
    const workDir = join(scratch, `run-${runs++}`);
    await mkdir(workDir);
    const cpu = cpuSeconds();
    const wall = performance.now();
    const result = await analyzeVideo({ videoPath: video, workDir, analyzers: chosen });
    return {
      cpu: cpuSeconds() - cpu,
      wall: (performance.now() - wall) / 1000,
      durationSeconds: result.durationSeconds,
    };
  };
  try {
    for (const [name, clip] of Object.entries(clips)) {
      // Warm-up: the first run pays model warm-up inside the detectors.
      await measure(clip, analyzers);
      const perMinute = (cpu: number, seconds: number): string => `${Math.round((cpu * 1000 * 60) / seconds)}`;
      const base = await measure(clip, []);
      const pixels = await measure(clip, [pixelsOnly]);
      process.stdout.write(`# ${name}: CPU ms per minute of footage (wall s in brackets)\n`);
      process.stdout.write(
        `  probe + scene cuts + keyframes: ${perMinute(base.cpu, base.durationSeconds)} (${base.wall.toFixed(1)})\n`,
      );
      process.stdout.write(
        `  pixels (keyframe decode, later frame): +${perMinute(pixels.cpu - base.cpu, base.durationSeconds)} (${pixels.wall.toFixed(1)})\n`,
      );
      for (const analyzer of analyzers) {
        const alone = await measure(clip, [pixelsOnly, analyzer]);
        process.stdout.write(
          `  ${analyzer.name}: +${perMinute(alone.cpu - pixels.cpu, base.durationSeconds)} (${alone.wall.toFixed(1)})\n`,
        );
      }
      const all = await measure(clip, analyzers);
      process.stdout.write(
        `  all together: ${perMinute(all.cpu, all.durationSeconds)} (${all.wall.toFixed(1)} s wall, ` +
          `${(all.durationSeconds / all.wall).toFixed(1)}x real time, ${(all.durationSeconds / all.cpu).toFixed(1)} video-s per CPU-s)\n`,
      );
    }
  } finally {
    await Promise.all(analyzers.map((a) => a.close()));
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
