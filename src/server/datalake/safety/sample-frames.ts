import { spawn } from 'node:child_process';
import { mediaInput } from '../../../common/media/media-input';
import { ffmpegPath } from '../../../common/media/tools';

export interface SampledFrame {
  /** Seconds from the start of the video. */
  t: number;
  rgb: Uint8Array;
}

export const SAMPLE_SIZE = 224;

/**
 * Frames at `fps` per second, scaled to the classifier's 224x224 input, streamed from one ffmpeg process so each frame
 * is classified (and its events published) while the rest still decode.
 */
export async function* sampleFrames(videoPath: string, fps: number, signal: AbortSignal): AsyncGenerator<SampledFrame> {
  const frameBytes = SAMPLE_SIZE * SAMPLE_SIZE * 3;
  const child = spawn(
    ffmpegPath(),
    [
      '-hide_banner',
      '-nostats',
      '-loglevel',
      'error',
      ...mediaInput('storedVideo', videoPath),
      '-an',
      '-sn',
      '-dn',
      '-vf',
      `fps=${fps},scale=${SAMPLE_SIZE}:${SAMPLE_SIZE}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], signal },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  exited.catch(() => {});
  let pending: Buffer = Buffer.alloc(0);
  let index = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= frameBytes) {
        const frame = new Uint8Array(pending.subarray(0, frameBytes));
        pending = pending.subarray(frameBytes);
        yield { t: index / fps, rgb: frame };
        index += 1;
      }
    }
    const code = await exited;
    if (code !== 0)
      throw new Error(`ffmpeg frame sampling exited with ${code}: ${stderr.trim().split('\n').slice(-2).join('; ')}`);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
