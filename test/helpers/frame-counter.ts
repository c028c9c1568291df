import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { lavfi, TONE_SOURCE } from '../fixtures/generated-clips';

const run = promisify(execFile);

export const COUNTER = { fps: 25, seconds: 8, width: 320, height: 64, bits: 8 } as const;

/**
 * An h264 + aac mp4 whose every frame shows its own frame number in binary: 8 blocks of 40 px, block b white when bit
 * b of the frame number is set. One keyframe only (GOP longer than the video), so a stream copy cannot start mid-GOP.
 */
export async function makeCounterVideo(dir: string, name = 'counter.mp4'): Promise<string> {
  const out = join(dir, name);
  const block = COUNTER.width / COUNTER.bits;
  const video = `color=c=black:s=${COUNTER.width}x${COUNTER.height}:r=${COUNTER.fps},format=yuv420p,geq=lum='255*mod(floor(N/pow(2\\,floor(X/${block})))\\,2)':cb=128:cr=128`;
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...lavfi(video),
    ...lavfi(TONE_SOURCE),
    '-t',
    String(COUNTER.seconds),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '12',
    '-g',
    '1000',
    '-keyint_min',
    '1000',
    '-sc_threshold',
    '0',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-shortest',
    out,
  ]);
  return out;
}

/** The frame number drawn on frame `index` (0 = first) of a counter video or of a clip cut from one. */
export async function frameNumberAt(file: string, index = 0): Promise<number> {
  const { stdout } = (await run(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      file,
      '-vf',
      `select=eq(n\\,${index}),scale=${COUNTER.bits}:1:flags=area`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 1024 * 1024 },
  )) as unknown as { stdout: Buffer };
  if (stdout.length < COUNTER.bits) throw new Error(`no frame ${index} in ${file}`);
  let n = 0;
  for (let b = 0; b < COUNTER.bits; b++) if ((stdout[b] ?? 0) > 128) n |= 1 << b;
  return n;
}

/** Decoded video frames of a file (ffprobe -count_frames). */
export async function videoFrameCount(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-count_frames',
    '-show_entries',
    'stream=nb_read_frames',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(stdout.trim());
}
