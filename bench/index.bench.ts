import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeVideo, createAnalyzers, type AnalyzeResult } from '../src/server/indexer/analyze-video';
import { command, compare, timeBest, type Benchmark, type Comparison } from './harness';
import { benchClip, DURATION } from './titled-clip';

function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

const bench: Benchmark = {
  name: 'index',
  description: `indexing a ${DURATION} s 1080p h264 clip (scene cuts, OCR, objects/faces; no audio track) vs \`ffmpeg -skip_frame nokey -i X -f null -\``,
  async run() {
    const clip = await benchClip();
    const scratch = await mkdtemp(join(tmpdir(), 'reelsync-bench-index-'));
    try {
      let runs = 0;
      const once = async (analyzers?: ReturnType<typeof createAnalyzers>): Promise<AnalyzeResult> => {
        const workDir = join(scratch, `run-${runs++}`);
        await mkdir(workDir);
        return analyzeVideo({ videoPath: clip, workDir, analyzers });
      };

      // Cold: what a one-off call pays, model loading and tesseract start included.
      let cold: AnalyzeResult | null = null;
      const coldSeconds = await timeBest(1, async () => (cold = await once()));

      // Warm: the service keeps its analyzers, so this is the per-video figure.
      const analyzers = createAnalyzers();
      for (const a of analyzers) await a.available();
      let warm: AnalyzeResult | null = null;
      const warmSeconds = await timeBest(2, async () => (warm = await once(analyzers)));
      await Promise.all(analyzers.map((a) => a.close()));
      const rss = peakRssMb();

      const baseSeconds = await timeBest(3, () =>
        command('ffmpeg', [
          '-hide_banner',
          '-loglevel',
          'error',
          '-skip_frame',
          'nokey',
          '-i',
          clip,
          '-f',
          'null',
          '-',
        ]),
      );

      const summary = (r: AnalyzeResult | null): string =>
        r
          ? `${r.segments.length} segments, OCR "${r.segments
              .map((s) => s.ocrText)
              .filter(Boolean)
              .join(' | ')}"`
          : 'no result';
      process.stdout.write(
        `  warm run: ${summary(warm)}\n  missing engines: ${JSON.stringify((warm as AnalyzeResult | null)?.missingEngines ?? [])}\n`,
      );
      process.stdout.write(`  cold run: ${summary(cold)}\n`);

      const baseline = { label: 'ffmpeg -skip_frame nokey', seconds: baseSeconds, amount: DURATION, unit: 'video-s' };
      const results: Comparison[] = [
        compare(
          'indexing speed, analyzers loaded (service steady state)',
          { label: 'analyzeVideo (warm)', seconds: warmSeconds, amount: DURATION, unit: 'video-s', peakRssMb: rss },
          baseline,
          `>= 10 video-s/s, i.e. <= ${(DURATION / 10).toFixed(1)} s`,
        ),
        compare(
          'indexing speed, one-off call (models loaded inside)',
          { label: 'analyzeVideo (cold)', seconds: coldSeconds, amount: DURATION, unit: 'video-s' },
          baseline,
        ),
      ];
      return results;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
};

export default bench;
