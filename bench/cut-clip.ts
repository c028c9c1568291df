import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_DIR } from './bench-files';
import { command } from './harness';

const CLIP = 'index-1080p-60s-cut-every-4s-v2.mp4';
export const CUT_SECONDS = 4;
export const CUT_CLIP_DURATION = 60;

/**
 * Test patterns that hold still or move (testsrc's counter, gradients' drift), alike in detail to the titled clip's
 * scenes. Not noise-like sources (life, mandelbrot): at 1080p they make a 140 MB file of texture no footage has.
 */
const SOURCES = [
  'testsrc2=size=1920x1080:rate=30',
  'smptehdbars=size=1920x1080:rate=30',
  'gradients=size=1920x1080:rate=30:speed=0.05',
  'testsrc=size=1920x1080:rate=30',
  'rgbtestsrc=size=1920x1080:rate=30',
  'yuvtestsrc=size=1920x1080:rate=30',
  'pal75bars=size=1920x1080:rate=30',
];

/** 60 s of 1080p30 h264, a hard cut every 4 s (15 shots), a keyframe every second like phone footage; made once. */
export async function cutEvery4sClip(): Promise<string> {
  await mkdir(BENCH_DIR, { recursive: true });
  const out = join(BENCH_DIR, CLIP);
  if (existsSync(out)) return out;
  const shots = CUT_CLIP_DURATION / CUT_SECONDS;
  const inputs = Array.from({ length: shots }, (_, i) => [
    ...['-f', 'lavfi', '-t', String(CUT_SECONDS)],
    ...['-i', SOURCES[i % SOURCES.length] ?? 'testsrc'],
  ]).flat();
  const chains = Array.from({ length: shots }, (_, i) => `[${i}:v]scale=1920:1080,setsar=1,format=yuv420p[v${i}]`);
  const concat = `${chains.map((_, i) => `[v${i}]`).join('')}concat=n=${shots}:v=1:a=0[out]`;
  const tmp = `${out}.part.mp4`;
  await command('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', ...inputs],
    ...['-filter_complex', `${chains.join(';')};${concat}`, '-map', '[out]'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-g', '30', '-pix_fmt', 'yuv420p', tmp],
  ]);
  await rename(tmp, out);
  return out;
}
