import { runTool } from './process';
import { scaleFilter } from './scene-cuts';

const QUIET = ['-hide_banner', '-nostats', '-loglevel', 'error', '-y'];

/** One frame at `time` (accurate seek: decodes from the keyframe before it), scaled like the cut keyframes. */
export async function extractFrameAt(videoPath: string, time: number, out: string, signal?: AbortSignal): Promise<void> {
  await runTool(
    'ffmpeg',
    [...QUIET, '-ss', time.toFixed(3), '-i', videoPath, '-an', '-sn', '-dn', '-vf', scaleFilter(), '-frames:v', '1', '-q:v', '4', out],
    { signal },
  );
}

/** A small poster JPEG made from an existing keyframe. */
export async function makePoster(keyframePath: string, out: string, signal?: AbortSignal): Promise<void> {
  await runTool('ffmpeg', [...QUIET, '-i', keyframePath, '-vf', scaleFilter(320), '-frames:v', '1', '-q:v', '5', out], { signal });
}

/** Width and height of an image, read by ffprobe. */
export async function imageSize(file: string, signal?: AbortSignal): Promise<{ width: number; height: number }> {
  const { stdout } = await runTool(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0:s=x', file],
    { signal },
  );
  const m = /^(\d+)x(\d+)/.exec(stdout.toString('utf8').trim());
  if (!m) throw new Error(`cannot read the size of ${file}`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** Decodes a JPEG to packed RGB24 bytes; checks the size against what the caller expects. */
export async function decodeRgb(file: string, width: number, height: number, signal?: AbortSignal): Promise<Uint8Array> {
  const { stdout } = await runTool('ffmpeg', [...QUIET, '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { signal });
  if (stdout.length !== width * height * 3) {
    throw new Error(`decoded ${stdout.length} bytes from ${file}, expected ${width}x${height}x3`);
  }
  return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
}
