import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { lavfi } from '../fixtures/generated-clips';

const run = promisify(execFile);
const SMALL_H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/**
 * A real Matroska video of `seconds` (10 fps, 160x120) whose Segment Info Duration is patched to 1 ms: ffprobe then
 * reports a duration of 0.001 s, while ffmpeg decodes every cluster.
 */
export async function mkvDeclaringOneMillisecond(out: string, seconds: number): Promise<string> {
  await run('ffmpeg', ['-v', 'error', '-y', ...lavfi(`testsrc=size=160x120:rate=10:d=${seconds}`), ...SMALL_H264, out]);
  const bytes = await readFile(out);
  // EBML element Duration: id 0x4489, size 8 (0x88), a big-endian double in TimestampScale units (1 ms).
  const at = bytes.indexOf(Buffer.from([0x44, 0x89, 0x88]));
  if (at < 0) throw new Error('no Duration element in the Matroska file');
  bytes.writeDoubleBE(1, at + 3);
  await writeFile(out, bytes);
  return out;
}

/** 600 real frames whose timestamps are 1 ms apart: the file says 0.6 s, the decoder does 20 s of 30 fps work. */
export async function mkvWithSqueezedTimestamps(out: string): Promise<string> {
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    ...lavfi('testsrc=size=160x120:rate=30:d=20'),
    '-vf',
    'setpts=N/1000/TB',
    '-fps_mode',
    'passthrough',
    ...SMALL_H264,
    out,
  ]);
  return out;
}
