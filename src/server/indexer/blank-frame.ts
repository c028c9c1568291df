import { stat } from 'node:fs/promises';
import { mediaInput } from '../../common/media/media-input';
import { ffmpegPath } from '../../common/media/tools';
import { runTool } from './process';

/**
 * A frame whose gray varies less than this (standard deviation, of 255) shows nothing: black, a fade's first frame, a
 * plain card. nsfwjs scored a black fade-in frame 0.79 and a plain dark gray one 0.94 "Drawing".
 */
export const BLANK_SPREAD = 4;

/**
 * JPEG bytes per pixel under which a keyframe may be blank and is decoded to find out: a black 1280x720 frame is
 * 5.6 kB (0.006 per pixel), a test pattern 67 kB; a title on black (8 kB) is decoded and kept.
 */
const MAYBE_BLANK_BYTES_PER_PIXEL = 1 / 40;

/** Standard deviation of the gray of a packed RGB picture, from every 4th pixel. */
export function graySpread(rgb: Uint8Array): number {
  const n = Math.floor(rgb.length / 12);
  return spread(n, (k) => 0.299 * (rgb[k * 12] ?? 0) + 0.587 * (rgb[k * 12 + 1] ?? 0) + 0.114 * (rgb[k * 12 + 2] ?? 0));
}

/** Standard deviation of `n` values. */
function spread(n: number, valueAt: (k: number) => number): number {
  if (n === 0) return 0;
  let sum = 0;
  let squares = 0;
  for (let k = 0; k < n; k++) {
    const v = valueAt(k);
    sum += v;
    squares += v * v;
  }
  const mean = sum / n;
  return Math.sqrt(Math.max(0, squares / n - mean * mean));
}

export function isBlankPicture(rgb: Uint8Array): boolean {
  return graySpread(rgb) < BLANK_SPREAD;
}

/** The gray copy a candidate is judged on: small, so one ffmpeg run reads a batch of them. */
const THUMB = { width: 160, height: 90 };
/** Candidates decoded by one ffmpeg run (each is an input on its command line). */
const PER_RUN = 32;

/**
 * Which keyframe JPEGs (of one size) show nothing. Only a small file can: those are decoded, PER_RUN per ffmpeg run
 * (its start-up costs more than decoding a small JPEG), each as a gray thumbnail.
 */
export async function blankKeyframes(
  paths: string[],
  size: { width: number; height: number },
  signal?: AbortSignal,
): Promise<Set<string>> {
  const candidates: string[] = [];
  for (const path of paths) {
    if ((await stat(path)).size < size.width * size.height * MAYBE_BLANK_BYTES_PER_PIXEL) candidates.push(path);
  }
  const blank = new Set<string>();
  for (let from = 0; from < candidates.length; from += PER_RUN) {
    const run = candidates.slice(from, from + PER_RUN);
    const thumbs = await grayThumbs(run, signal);
    const pixels = THUMB.width * THUMB.height;
    run.forEach((path, i) => {
      if (spread(pixels, (k) => thumbs[i * pixels + k] ?? 0) < BLANK_SPREAD) blank.add(path);
    });
  }
  return blank;
}

async function grayThumbs(paths: string[], signal?: AbortSignal): Promise<Uint8Array> {
  const scaled = paths.map((_, i) => `[${i}:v]scale=${THUMB.width}:${THUMB.height},setsar=1,format=gray[g${i}]`);
  const joined = `${paths.map((_, i) => `[g${i}]`).join('')}concat=n=${paths.length}:v=1:a=0[out]`;
  const { stdout } = await runTool(
    ffmpegPath(),
    [
      '-hide_banner',
      '-nostats',
      '-loglevel',
      'error',
      ...paths.flatMap((path) => mediaInput('image', path)),
      '-filter_complex',
      [...scaled, joined].join(';'),
      '-map',
      '[out]',
      // One frame per input: the stills all stand at time 0, which a constant frame rate would merge.
      '-fps_mode',
      'passthrough',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      'pipe:1',
    ],
    { signal },
  );
  const expected = paths.length * THUMB.width * THUMB.height;
  if (stdout.length !== expected)
    throw new Error(`decoded ${stdout.length} bytes of gray thumbnails, expected ${expected}`);
  return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
}
