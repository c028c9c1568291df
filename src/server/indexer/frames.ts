import { mediaInput } from '../../common/media/media-input';
import { runTool } from './process';
import { scaleFilter } from './scene-cuts';
import { ffmpegPath, ffprobePath } from '../../common/media/tools';

const QUIET = ['-hide_banner', '-nostats', '-loglevel', 'error', '-y'];

/** One frame at `time` (accurate seek: decodes from the keyframe before it), scaled like the cut keyframes. */
export async function extractFrameAt(
  videoPath: string,
  time: number,
  out: string,
  signal?: AbortSignal,
): Promise<void> {
  await runTool(
    ffmpegPath(),
    [
      ...QUIET,
      ...mediaInput('storedVideo', videoPath, ['-ss', time.toFixed(3)]),
      '-an',
      '-sn',
      '-dn',
      '-vf',
      scaleFilter(),
      '-frames:v',
      '1',
      '-q:v',
      '4',
      out,
    ],
    { signal },
  );
}

export interface FrameShot {
  time: number;
  jpegOut: string;
  /** Packed RGB24 of the same frame, scaled the same way but taken before JPEG compression. */
  rgbOut: string;
}

/** A JPEG already on disk whose pixels are wanted as packed RGB24 (what decodeRgb gives, written to a file). */
export interface JpegDecode {
  jpegIn: string;
  rgbOut: string;
}

/**
 * Frames at several times (accurate seeks, scaled like the cut keyframes) in one ffmpeg run: each time is an input of
 * its own, so a run costs one start-up instead of one per frame. Writes each frame as JPEG and as raw RGB (comparing
 * it with another frame then needs no decode). A time past the last decodable frame writes no JPEG. The same run
 * decodes `decodes` (the segments' keyframe JPEGs): an ffmpeg start-up costs more CPU than decoding a small JPEG,
 * and one run per keyframe was a tenth of all the indexing CPU on footage cut every 4 s.
 */
export async function extractFramesWithRgb(
  videoPath: string,
  shots: FrameShot[],
  signal?: AbortSignal,
  decodes: JpegDecode[] = [],
): Promise<void> {
  if (shots.length === 0 && decodes.length === 0) return;
  // One decoder thread per input (thread start-up costs more than it saves on a few frames), and no decoding of frames
  // that no other frame refers to (most B-frames): the frame written is the first decoded one at or after the time,
  // at most a frame or two later, and decoding from a keyframe ten seconds back costs half as much.
  const inputs = shots.flatMap((s) =>
    mediaInput('storedVideo', videoPath, ['-threads', '1', '-skip_frame', 'noref', '-ss', s.time.toFixed(3)]),
  );
  // yuvj420p before the split: the JPEG comes out exactly as extractFrameAt makes it.
  const graph = shots.map((_, i) => `[${i}:v]${scaleFilter()},format=yuvj420p,split[j${i}][r${i}]`).join(';');
  const outputs = shots.flatMap((s, i) => [
    ...['-map', `[j${i}]`, '-frames:v', '1', '-q:v', '4', s.jpegOut],
    ...rgbOutput(`[r${i}]`, s.rgbOut),
  ]);
  // Mapped straight from their input, no filter: the pixels are exactly decodeRgb's.
  const decodeInputs = decodes.flatMap((d) => mediaInput('image', d.jpegIn));
  const decodeOutputs = decodes.flatMap((d, i) => rgbOutput(`${shots.length + i}:v`, d.rgbOut));
  const filter = shots.length > 0 ? ['-filter_complex', graph] : [];
  await runTool(ffmpegPath(), [...QUIET, ...inputs, ...decodeInputs, ...filter, ...outputs, ...decodeOutputs], {
    signal,
  });
}

/** One frame of `stream` as a file of packed RGB24. */
function rgbOutput(stream: string, out: string): string[] {
  return ['-map', stream, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', out];
}

/** A small poster JPEG made from an existing keyframe. */
export async function makePoster(keyframePath: string, out: string, signal?: AbortSignal): Promise<void> {
  await runTool(
    ffmpegPath(),
    [...QUIET, ...mediaInput('image', keyframePath), '-vf', scaleFilter(320), '-frames:v', '1', '-q:v', '5', out],
    { signal },
  );
}

/** Width and height of an image, read by ffprobe. */
export async function imageSize(file: string, signal?: AbortSignal): Promise<{ width: number; height: number }> {
  const { stdout } = await runTool(
    ffprobePath(),
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height',
      '-of',
      'csv=p=0:s=x',
      ...mediaInput('image', file),
    ],
    { signal },
  );
  const m = /^(\d+)x(\d+)/.exec(stdout.toString('utf8').trim());
  if (!m) throw new Error(`cannot read the size of ${file}`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** Decodes a JPEG to packed RGB24 bytes; checks the size against what the caller expects. */
export async function decodeRgb(
  file: string,
  width: number,
  height: number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const { stdout } = await runTool(
    ffmpegPath(),
    [...QUIET, ...mediaInput('image', file), '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { signal },
  );
  if (stdout.length !== width * height * 3) {
    throw new Error(`decoded ${stdout.length} bytes from ${file}, expected ${width}x${height}x3`);
  }
  return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
}
