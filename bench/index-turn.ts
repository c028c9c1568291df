import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeVideo, createAnalyzers } from '../src/server/indexer/analyze-video';
import { cpuSeconds, mainThreadCpuSeconds } from './cpu-time';
import { cutEvery4sClip } from './cut-clip';
import { benchClip } from './titled-clip';

/**
 * One turn of an A/B comparison of indexing speed between two checkouts (`npx tsx bench/index-turn.ts [rounds]`, run
 * in each checkout in turns: the machine's load drifts within minutes, so before and after are taken alternately).
 * Loads the analyzers, indexes each bench clip once to warm them up, then `rounds` times, and prints one JSON line per
 * clip: the best wall time as a multiple of real time, the least CPU (every thread and child) per minute of footage, and
 * the least CPU of the main thread alone (where the detectors compute: the critical path on an idle machine).
 */
async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 2);
  if (!(Number.isInteger(rounds) && rounds > 0)) throw new Error('usage: npx tsx bench/index-turn.ts [ROUNDS]');
  const clips = { take: await benchClip(), cut: await cutEvery4sClip() };
  const analyzers = createAnalyzers();
  for (const a of analyzers) await a.available();
  const scratch = await mkdtemp(join(tmpdir(), 'reelsync-index-turn-'));
  let runs = 0;
  const once = async (clip: string): Promise<{ wall: number; cpu: number; main: number; duration: number }> => {
    const workDir = join(scratch, `run-${runs++}`);
    await mkdir(workDir);
    const cpu = cpuSeconds();
    const main = mainThreadCpuSeconds();
    const wall = performance.now();
    const result = await analyzeVideo({ videoPath: clip, workDir, analyzers });
    const out = {
      wall: (performance.now() - wall) / 1000,
      cpu: cpuSeconds() - cpu,
      main: mainThreadCpuSeconds() - main,
      duration: result.durationSeconds,
    };
    await rm(workDir, { recursive: true, force: true });
    return out;
  };
  try {
    for (const [name, clip] of Object.entries(clips)) {
      await once(clip);
      let wall = Infinity;
      let cpu = Infinity;
      let main = Infinity;
      let duration = 0;
      const load = loadavg()[0] ?? 0;
      for (let i = 0; i < rounds; i++) {
        const run = await once(clip);
        wall = Math.min(wall, run.wall);
        cpu = Math.min(cpu, run.cpu);
        main = Math.min(main, run.main);
        duration = run.duration;
      }
      const line = {
        clip: name,
        xRealTime: Number((duration / wall).toFixed(2)),
        cpuMsPerMinute: Math.round((cpu * 60_000) / duration),
        mainThreadCpuMsPerMinute: Math.round((main * 60_000) / duration),
        load: Number(load.toFixed(1)),
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  } finally {
    await Promise.all(analyzers.map((a) => a.close()));
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`index-turn failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
