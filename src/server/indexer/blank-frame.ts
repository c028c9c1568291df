import { stat } from 'node:fs/promises';
import { decodeRgb } from './frames';

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
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i + 2 < rgb.length; i += 12) {
    const v = 0.299 * (rgb[i] ?? 0) + 0.587 * (rgb[i + 1] ?? 0) + 0.114 * (rgb[i + 2] ?? 0);
    sum += v;
    squares += v * v;
    n++;
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return Math.sqrt(Math.max(0, squares / n - mean * mean));
}

export function isBlankPicture(rgb: Uint8Array): boolean {
  return graySpread(rgb) < BLANK_SPREAD;
}

/** Whether a keyframe JPEG shows nothing; only a small file is decoded to tell. */
export async function keyframeIsBlank(
  path: string,
  size: { width: number; height: number },
  signal?: AbortSignal,
): Promise<boolean> {
  const { size: bytes } = await stat(path);
  if (bytes >= size.width * size.height * MAYBE_BLANK_BYTES_PER_PIXEL) return false;
  return isBlankPicture(await decodeRgb(path, size.width, size.height, signal));
}
