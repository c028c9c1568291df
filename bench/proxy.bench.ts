import { existsSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ENCODERS } from '../src/main/proxy/encoders';
import { runProxyEncode } from '../src/main/proxy/make-proxy';
import { probeOriginal } from '../src/main/media/original-probe';
import { DEFAULT_PROXY_WIDTH, proxyArgs } from '../src/main/proxy/proxy-args';
import { BENCH_DIR } from './bench-files';
import { command, compare, rssMb, timeBest, type Benchmark } from './harness';

const SECONDS = 24;

/** 24 s of 1080p25 ProRes 422 HQ with motion and sound, made once by ffmpeg and reused. */
async function prores1080(): Promise<string> {
  await mkdir(BENCH_DIR, { recursive: true });
  const file = join(BENCH_DIR, `prores-hq-1080p25-${SECONDS}s.mov`);
  if (existsSync(file)) return file;
  await command('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(SECONDS)],
    ...['-c:v', 'prores_ks', '-profile:v', '3', '-pix_fmt', 'yuv422p10le', '-c:a', 'pcm_s16le'],
    ...['-timecode', '01:00:00:00', `${file}.part.mov`],
  ]);
  await rename(`${file}.part.mov`, file);
  return file;
}

/** Peak resident memory of this process (the client) and of the ffmpeg child, sampled every 100 ms. */
function rssSampler() {
  let node = 0;
  let child = 0;
  let pid: number | undefined;
  const timer = setInterval(() => {
    node = Math.max(node, process.memoryUsage().rss / 1024 / 1024);
    if (pid)
      rssMb(pid).then(
        (mb) => (child = Math.max(child, mb)),
        () => undefined,
      );
  }, 100);
  return {
    onPid: (p: number) => (pid = p),
    stop: () => {
      clearInterval(timer);
      return { node, child };
    },
  };
}

const bench: Benchmark = {
  name: 'proxy',
  description: `search proxy (H.264 ${DEFAULT_PROXY_WIDTH} wide, libx264) of ${SECONDS} s of 1080p25 ProRes 422 HQ vs ffmpeg decoding the same file to null`,
  async run() {
    const input = await prores1080();
    const original = await probeOriginal(input);
    const out = join(BENCH_DIR, 'proxy-out.mp4');
    const args = proxyArgs({ input, output: out, original, width: DEFAULT_PROXY_WIDTH, encoder: ENCODERS.libx264 });
    await command('ffmpeg', ['-v', 'error', '-i', input, '-f', 'null', '-']); // page cache warm for both
    let peak = { node: 0, child: 0 };
    const oursSeconds = await timeBest(2, async () => {
      const sampler = rssSampler();
      await runProxyEncode(args, {
        duration: original.duration,
        signal: new AbortController().signal,
        onProgress: () => undefined,
        onPid: sampler.onPid,
      });
      const got = sampler.stop();
      peak = { node: Math.max(peak.node, got.node), child: Math.max(peak.child, got.child) };
    });
    const decodeSeconds = await timeBest(2, () => command('ffmpeg', ['-v', 'error', '-i', input, '-f', 'null', '-']));
    const cacheBytes = (await stat(out)).size;
    await rm(out, { force: true });
    return [
      compare(
        'proxy throughput (video seconds per second = x real time)',
        { label: 'reelsync proxy (libx264)', seconds: oursSeconds, amount: original.duration, unit: 'video-s' },
        { label: 'ffmpeg decode to null', seconds: decodeSeconds, amount: original.duration, unit: 'video-s' },
        '>= 0.67x (proxy no slower than 1.5x decoding alone), >= 3x real time',
      ),
      {
        what: 'proxy resources',
        lines: [
          `x real time: proxy ${(original.duration / oursSeconds).toFixed(2)}x, decode only ${(original.duration / decodeSeconds).toFixed(2)}x`,
          `peak RSS: client process ${peak.node.toFixed(0)} MB (goal < 300 MB), ffmpeg child ${peak.child.toFixed(0)} MB`,
          `cache holds ${(cacheBytes / 1024 / 1024).toFixed(1)} MB for ${original.duration.toFixed(0)} s (${((cacheBytes * 8) / original.duration / 1e6).toFixed(2)} Mbit/s)`,
        ],
      },
    ];
  },
};

export default bench;
