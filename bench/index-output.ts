import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeVideo, createAnalyzers } from '../src/server/indexer/analyze-video';
import { cpuSeconds } from './cpu-time';
import { cutEvery4sClip } from './cut-clip';
import { benchClip } from './titled-clip';

/**
 * What indexing puts in the index for both bench clips, as JSON (`npx tsx bench/index-output.ts out.json`): segments,
 * labels with their scores, OCR text, transcript, faces. Run before and after a pipeline change and diff the two files:
 * a speed-up must not change a descriptor. Also prints CPU ms per minute of footage of each (warm) run.
 */
async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: npx tsx bench/index-output.ts OUT.json');
  const clips = { titled: await benchClip(), cutEvery4s: await cutEvery4sClip() };
  const analyzers = createAnalyzers();
  for (const a of analyzers) await a.available();
  const scratch = await mkdtemp(join(tmpdir(), 'reelsync-index-output-'));
  const report: Record<string, unknown> = {};
  try {
    let runs = 0;
    for (const [name, clip] of Object.entries(clips)) {
      const workDir = join(scratch, `run-${runs++}`);
      await mkdir(workDir);
      const cpu = cpuSeconds();
      const result = await analyzeVideo({ videoPath: clip, workDir, analyzers });
      const cpuMsPerMinute = Math.round(((cpuSeconds() - cpu) * 1000 * 60) / result.durationSeconds);
      process.stdout.write(`${name}: ${result.segments.length} segments, ${cpuMsPerMinute} CPU ms per minute\n`);
      report[name] = {
        durationSeconds: result.durationSeconds,
        failures: result.failures,
        segments: result.segments.map((s) => ({
          start: s.start,
          end: s.end,
          ocrText: s.ocrText,
          transcript: s.transcript,
          caption: s.caption,
          labels: s.labels.map((l) => `${l.source} ${l.label} ${l.score.toFixed(3)}`),
          faces: s.faces.map((f) => `${f.box.map(Math.round).join(',')} ${f.score}`),
        })),
      };
    }
    await writeFile(out, `${JSON.stringify(report, null, 1)}\n`);
  } finally {
    await Promise.all(analyzers.map((a) => a.close()));
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`index-output failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
