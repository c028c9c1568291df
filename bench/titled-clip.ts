import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_DIR } from './bench-files';
import { command } from './harness';

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const CLIP = 'index-1080p-60s-v1.mp4';

/** Scenes of uneven length (hard cuts), each with a drawn title: 60 s in all. */
export const SCENES: { source: string; seconds: number; title: string }[] = [
  { source: 'testsrc2=size=1920x1080:rate=30', seconds: 8, title: 'HARBOUR LIGHTS' },
  { source: 'smptehdbars=size=1920x1080:rate=30', seconds: 12, title: 'CHAPTER TWO' },
  { source: 'gradients=size=1920x1080:rate=30:speed=0.02', seconds: 7, title: 'SUNSET OVER THE BAY' },
  { source: 'testsrc=size=1920x1080:rate=30', seconds: 15, title: 'INTERVIEW' },
  { source: 'cellauto=size=1920x1080:rate=30:rule=110', seconds: 10, title: 'NIGHT MARKET' },
  { source: 'rgbtestsrc=size=1920x1080:rate=30', seconds: 8, title: 'THE END' },
];
export const DURATION = SCENES.reduce((sum, s) => sum + s.seconds, 0);

/** 1080p30 h264 with a keyframe every second, like phone footage; made once and reused. */
export async function benchClip(): Promise<string> {
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
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...inputs,
    '-filter_complex',
    `${chains};${concat}`,
    '-map',
    '[out]',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-g',
    '30',
    '-pix_fmt',
    'yuv420p',
    tmp,
  ]);
  await rename(tmp, out);
  return out;
}
