import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeVideo, createAnalyzers, type AnalyzeResult } from '../src/server/indexer/analyze-video';
import { BENCH_DIR } from './bench-files';
import { command, compare, timeBest, type Benchmark, type Comparison } from './harness';

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const CLIP = 'index-1080p-60s-v1.mp4';

/** Scenes of uneven length (hard cuts), each with a drawn title: 60 s in all. */
const SCENES: { source: string; seconds: number; title: string }[] = [
  { source: 'testsrc2=size=1920x1080:rate=30', seconds: 8, title: 'HARBOUR LIGHTS' },
  { source: 'smptehdbars=size=1920x1080:rate=30', seconds: 12, title: 'CHAPTER TWO' },
  { source: 'gradients=size=1920x1080:rate=30:speed=0.02', seconds: 7, title: 'SUNSET OVER THE BAY' },
  { source: 'testsrc=size=1920x1080:rate=30', seconds: 15, title: 'INTERVIEW' },
  { source: 'cellauto=size=1920x1080:rate=30:rule=110', seconds: 10, title: 'NIGHT MARKET' },
  { source: 'rgbtestsrc=size=1920x1080:rate=30', seconds: 8, title: 'THE END' },
];
const DURATION = SCENES.reduce((sum, s) => sum + s.seconds, 0);

/** 1080p30 h264 with a keyframe every second, like phone footage; made once and reused. */
async function benchClip(): Promise<string> {
  await mkdir(BENCH_DIR, { recursive: true });
  const out = join(BENCH_DIR, CLIP);
  if (existsSync(out)) return out;
  const inputs = SCENES.flatMap((s) => ['-f', 'lavfi', '-t', String(s.seconds), '-i', s.source]);
  const chains = SCENES.map(
    (s, i) =>
      `[${i}:v]scale=1920:1080,setsar=1,format=yuv420p,drawtext=fontfile=${FONT}:text='${s.title}':fontcolor=white:` +
      `box=1:boxcolor=black@0.6:boxborderw=20:fontsize=110:x=(w-text_w)/2:y=h-text_h-140[v${i}]`,
  ).join(';');
  const concat = `${SCENES.map((_, i) => `[v${i}]`).join('')}concat=n=${SCENES.length}:v=1:a=0[out]`;
  const tmp = `${out}.part.mp4`;
  await command('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y', ...inputs,
    '-filter_complex', `${chains};${concat}`, '-map', '[out]',
    '-c:v', 'libx264', '-preset', 'veryfast', '-g', '30', '-pix_fmt', 'yuv420p', tmp,
  ]);
  await rename(tmp, out);
  return out;
}

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

      const baseSeconds = await timeBest(3, () => command('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-skip_frame', 'nokey', '-i', clip, '-f', 'null', '-']));

      const summary = (r: AnalyzeResult | null): string =>
        r ? `${r.segments.length} segments, OCR "${r.segments.map((s) => s.ocrText).filter(Boolean).join(' | ')}"` : 'no result';
      process.stdout.write(`  warm run: ${summary(warm)}\n  missing engines: ${JSON.stringify((warm as AnalyzeResult | null)?.missingEngines ?? [])}\n`);
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
