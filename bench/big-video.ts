import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BENCH_DIR } from './bench-files';

const run = promisify(execFile);

/**
 * A valid h264 mp4 of at least `minBytes`: ten seconds of lossless noise (incompressible, ~250 MB) encoded once,
 * then repeated with stream copy. Made once and reused.
 */
export async function bigVideo(minBytes: number): Promise<string> {
  const piece = await noisePiece();
  return repeated(piece, Math.ceil(minBytes / (await stat(piece)).size));
}

/** The largest such mp4 of at most `maxBytes` (the biggest upload a size limit lets through). */
export async function bigVideoUnder(maxBytes: number): Promise<string> {
  const piece = await noisePiece();
  // The joined file's index grows with its length: one copy fewer when it tips over the limit.
  for (let copies = Math.floor(maxBytes / (await stat(piece)).size); copies > 1; copies--) {
    const out = await repeated(piece, copies);
    if ((await stat(out)).size <= maxBytes) return out;
  }
  return piece;
}

async function noisePiece(): Promise<string> {
  await mkdir(BENCH_DIR, { recursive: true });
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
  return piece;
}

/** `piece` played `copies` times in one mp4 (stream copy); made once per count. */
async function repeated(piece: string, copies: number): Promise<string> {
  const out = join(BENCH_DIR, `big-x${copies}.mp4`);
  if (existsSync(out)) return out;
  const list = join(BENCH_DIR, 'concat.txt');
  await writeFile(list, Array.from({ length: copies }, () => `file '${piece}'`).join('\n'));
  const partial = `${out}.partial.mp4`;
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
    partial,
  ]);
  await rm(list, { force: true });
  await rename(partial, out);
  return out;
}
