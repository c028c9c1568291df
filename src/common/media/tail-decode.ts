import { spawn } from 'node:child_process';
import { reasonFrom } from './ffprobe';
import { mediaInput, type InputKind } from './media-input';
import { ffmpegPath } from './tools';

export type TailDecode = { ok: true } | { ok: false; detail: string };

const MAX_STDERR = 4096;

/**
 * Decodes the last `seconds` of a media file and discards the frames. A file cut short after an index that describes
 * all of it (mp4 `+faststart`) probes fine, but its last samples point past the end: the demuxer logs "partial file"
 * or the decoders "Invalid data". ffmpeg still exits 0 then, so any line it logs at level `error` counts as a failure.
 */
export function decodeTail(
  path: string,
  options: { kind: InputKind; seconds?: number; signal?: AbortSignal; timeoutMs?: number },
): Promise<TailDecode> {
  const seconds = options.seconds ?? 1;
  const args = [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    ...mediaInput(options.kind, path, ['-sseof', `-${seconds}`]),
    '-f',
    'null',
    '-',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      signal: options.signal,
      timeout: options.timeoutMs ?? 60_000,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < MAX_STDERR) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, sig) => {
      if (options.signal?.aborted)
        return reject(options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted'));
      const detail = reasonFrom(stderr, path);
      if (code === 0 && detail === '') return resolve({ ok: true });
      resolve({
        ok: false,
        detail: detail || `ffmpeg stopped (${sig ?? `exit ${String(code)}`}) decoding the end of the file`,
      });
    });
  });
}
