import { packagedPhoto } from '../fixtures/eval-media';
import { photoPath, type PhotoName } from '../fixtures/media';
import { mediaInput } from '../../src/common/media/media-input';
import { ffmpegPath } from '../../src/common/media/tools';
import { runTool } from '../../src/server/indexer/process';

/** Frames for the pixel analyzers' tests: drawn in memory (one colour function per pixel) or decoded from photos. */

export type Rgb = [number, number, number];

export function drawFrame(width: number, height: number, colour: (x: number, y: number) => Rgb): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colour(x, y);
      const i = (y * width + x) * 3;
      rgb[i] = r;
      rgb[i + 1] = g;
      rgb[i + 2] = b;
    }
  }
  return rgb;
}

export function solid(width: number, height: number, colour: Rgb): Uint8Array {
  return drawFrame(width, height, () => colour);
}

/** A real photograph, scaled to 640 x 360 packed RGB by ffmpeg, as the indexer's keyframes are. */
export async function photoRgb(name: PhotoName): Promise<Uint8Array> {
  const { stdout } = await runTool(ffmpegPath(), [
    ...['-v', 'error', ...mediaInput('image', await photoPath(name))],
    ...['-vf', 'scale=640:360,setsar=1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
  ]);
  return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
}

/**
 * A photograph from OpenCV's samples or MATE's wallpapers as the indexer's keyframe of the evaluation's slideshows shows
 * it: fitted into 640 x 360 with black bars, packed RGB.
 */
export async function packagedRgb(pkg: 'opencv' | 'mate', file: string): Promise<Uint8Array> {
  const fit = 'scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2,setsar=1';
  const { stdout } = await runTool(ffmpegPath(), [
    ...['-v', 'error', ...mediaInput('image', await packagedPhoto(pkg, file))],
    ...['-vf', fit, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
  ]);
  return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
}
