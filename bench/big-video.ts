import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BENCH_DIR } from './bench-files';

const run = promisify(execFile);

/**
 * A valid h264 mp4 of at least `minBytes`: ten seconds of lossless noise (incompressible, ~250 MB) encoded once,
 * then repeated with stream copy. Made once and reused.
 */
export async function bigVideo(minBytes: number): Promise<string> {
  await mkdir(BENCH_DIR, { recursive: true });
  const out = join(BENCH_DIR, `big-${Math.round(minBytes / 1e6)}MB.mp4`);
  if (existsSync(out) && (await stat(out)).size >= minBytes) return out;
  const piece = join(BENCH_DIR, 'noise-piece.mp4');
  if (!existsSync(piece)) {
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'nullsrc=s=1280x720:r=30,geq=lum=random(1)*255:cb=128:cr=128',
      '-t',
      '10',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-qp',
      '0',
      '-pix_fmt',
      'yuv420p',
      piece,
    ]);
  }
  const copies = Math.ceil(minBytes / (await stat(piece)).size);
  const list = join(BENCH_DIR, 'concat.txt');
  await writeFile(list, Array.from({ length: copies }, () => `file '${piece}'`).join('\n'));
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-c',
    'copy',
    out,
  ]);
  await rm(list, { force: true });
  return out;
}
