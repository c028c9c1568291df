import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { analyzeVideo, createAnalyzers } from '../src/server/indexer/analyze-video';
import type { Analyzer } from '../src/server/indexer/types';
import { cutEvery4sClip } from './cut-clip';
import { benchClip } from './titled-clip';

/**
 * The critical path of one indexing run (`npx tsx bench/index-timeline.ts [take|cut]`): when each stage ended and when
 * each analyzer worked on each segment, in ms from the start, after a warm-up run. Gaps in a row are time that
 * analyzer waited (on pixels, on the pace of the slowest, on the segmenting stage).
 */
async function main(): Promise<void> {
  const which = process.argv[2] ?? 'take';
  const clip = which === 'cut' ? await cutEvery4sClip() : await benchClip();
  const analyzers = createAnalyzers();
  for (const a of analyzers) await a.available();
  const scratch = await mkdtemp(join(tmpdir(), 'reelsync-index-timeline-'));
  let t0 = 0;
  const spans = new Map<string, string[]>();
  const traced: Analyzer[] = analyzers.map((a) => {
    if (a.kind !== 'frame') return a;
    const analyze = a.analyze.bind(a);
    return Object.assign(Object.create(a) as typeof a, {
      analyze: async (segment: Parameters<typeof analyze>[0], signal?: AbortSignal) => {
        const start = performance.now() - t0;
        try {
          return await analyze(segment, signal);
        } finally {
          const row = spans.get(a.name) ?? [];
          row.push(`${segment.index}:${Math.round(start)}-${Math.round(performance.now() - t0)}`);
          spans.set(a.name, row);
        }
      },
    });
  });
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  try {
    for (let run = 0; run < 2; run++) {
      spans.clear();
      lines.length = 0;
      const workDir = join(scratch, `run-${run}`);
      await mkdir(workDir);
      t0 = performance.now();
      const result = await analyzeVideo({ videoPath: clip, workDir, analyzers: traced, logger });
      const wall = performance.now() - t0;
      if (run === 0) continue;
      const done = lines.map((l) => JSON.parse(l) as { msg?: string; stageMs?: unknown }).find((l) => l.stageMs);
      process.stdout.write(
        `${which}: ${result.segments.length} segments, ${(wall / 1000).toFixed(2)} s wall, ` +
          `${(result.durationSeconds / (wall / 1000)).toFixed(1)}x real time, load ${loadavg()[0]?.toFixed(1)}\n` +
          `  stages (ms each): ${JSON.stringify(done?.stageMs)}\n`,
      );
      for (const [name, row] of spans) process.stdout.write(`  ${name.padEnd(8)} ${row.join(' ')}\n`);
    }
  } finally {
    await Promise.all(analyzers.map((a) => a.close()));
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`timeline failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
