import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_DIR } from './bench-files';
import { command } from './harness';

/** Debian's fonts-dejavu-core (scripts/setup.sh), named by file: never whatever fontconfig falls back to. */
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/**
 * Scenes of uneven length (hard cuts), each with a drawn title: 60 s in all. Every source is deterministic: ffmpeg's
 * `gradients` and `cellauto` draw from a random seed unless given one (and `gradients` picks random colours unless
 * named), so each fresh machine used to get other backgrounds behind "SUNSET OVER THE BAY" and "NIGHT MARKET", and
 * tesseract read them on some and not on others (search-quality 0.833 here, 0.722 on a fresh clone).
 */
export const SCENES: { source: string; seconds: number; title: string }[] = [
  { source: 'testsrc2=size=1920x1080:rate=30', seconds: 8, title: 'HARBOUR LIGHTS' },
  { source: 'smptehdbars=size=1920x1080:rate=30', seconds: 12, title: 'CHAPTER TWO' },
  {
    source: 'gradients=size=1920x1080:rate=30:speed=0.02:n=2:c0=0xff8c1a:c1=0x5a2d82:seed=1',
    seconds: 7,
    title: 'SUNSET OVER THE BAY',
  },
  { source: 'testsrc=size=1920x1080:rate=30', seconds: 15, title: 'INTERVIEW' },
  { source: 'cellauto=size=1920x1080:rate=30:rule=110:seed=1', seconds: 10, title: 'NIGHT MARKET' },
  { source: 'rgbtestsrc=size=1920x1080:rate=30', seconds: 8, title: 'THE END' },
];
export const DURATION = SCENES.reduce((sum, s) => sum + s.seconds, 0);

/** The ffmpeg arguments that make the clip (output path appended); also its cache key. */
function recipe(): string[] {
  const inputs = SCENES.flatMap((s) => ['-f', 'lavfi', '-t', String(s.seconds), '-i', s.source]);
  const chains = SCENES.map(
    (s, i) =>
      `[${i}:v]scale=1920:1080,setsar=1,format=yuv420p,drawtext=fontfile=${FONT}:text='${s.title}':fontcolor=white:` +
      `box=1:boxcolor=black@0.6:boxborderw=20:fontsize=110:x=(w-text_w)/2:y=h-text_h-140[v${i}]`,
  ).join(';');
  const concat = `${SCENES.map((_, i) => `[v${i}]`).join('')}concat=n=${SCENES.length}:v=1:a=0[out]`;
  return [
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
  ];
}

/**
 * 1080p30 h264 with a keyframe every second, like phone footage; made once and reused. The file's name carries a hash
 * of its recipe, so a clip an older recipe made is never reused.
 */
export async function benchClip(): Promise<string> {
  await mkdir(BENCH_DIR, { recursive: true });
  const args = recipe();
  const key = createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 12);
  const out = join(BENCH_DIR, `index-1080p-60s-${key}.mp4`);
  if (existsSync(out)) return out;
  if (!existsSync(FONT)) throw new Error(`${FONT} is missing: install fonts-dejavu-core (scripts/setup.sh)`);
  const tmp = `${out}.part.mp4`;
  await command('ffmpeg', [...args, tmp]);
  await rename(tmp, out);
  return out;
}
