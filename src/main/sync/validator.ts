import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { ffprobe, ProbeError } from '../../common/media/ffprobe';
import { decodeTail } from '../../common/media/tail-decode';
import { UPLOAD_LIMITS } from '../../shared/api-types';

export type Validation =
  | { ok: true; codec: string; size: number; duration: number; width: number; height: number; fps: number | null }
  | { ok: false; reason: string };

const ACCEPTED_CODECS: readonly string[] = UPLOAD_LIMITS.codecs;
const ACCEPTED_EXTENSIONS: readonly string[] = UPLOAD_LIMITS.extensions;

/** Extension check alone (no I/O): the reason when the name alone rules the file out, else null. */
export function extensionProblem(path: string): string | null {
  const ext = extname(path).toLowerCase();
  if (ACCEPTED_EXTENSIONS.includes(ext)) return null;
  return `extension ${ext || '(none)'} is not accepted (${ACCEPTED_EXTENSIONS.join(', ')})`;
}

/** Declared stream bytes may exceed the file by rounding of bit rates only; a cut file misses far more. */
const DECLARED_SLACK = 1.02;

/**
 * Everything the service would reject, checked before spending an upload: name, size, readability, codec, integrity
 * (the index must fit the file, and the last second must decode). Reasons are technical: plain-reasons.ts words them.
 */
export async function validateVideo(
  path: string,
  options: { signal?: AbortSignal; maxBytes?: number } = {},
): Promise<Validation> {
  const byName = extensionProblem(path);
  if (byName) return { ok: false, reason: byName };
  const info = await stat(path);
  if (!info.isFile()) return { ok: false, reason: 'not a regular file' };
  if (info.size === 0) return { ok: false, reason: 'empty file (0 bytes)' };
  const maxBytes = options.maxBytes ?? UPLOAD_LIMITS.maxBytes;
  if (info.size > maxBytes)
    return { ok: false, reason: `too large: ${formatBytes(info.size)} (the limit is ${formatBytes(maxBytes)})` };
  try {
    await access(path, constants.R_OK);
  } catch {
    return { ok: false, reason: 'not readable (permission denied)' };
  }
  let probe;
  try {
    probe = await ffprobe(path, { kind: 'uploadVideo', signal: options.signal });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    if (err instanceof ProbeError)
      return { ok: false, reason: `not a readable video (truncated or corrupt?): ${err.message}` };
    throw err;
  }
  if (!probe.video) return { ok: false, reason: 'no video stream found' };
  const codec = probe.video.codec.toLowerCase();
  if (!ACCEPTED_CODECS.includes(codec))
    return { ok: false, reason: `video codec ${codec} is not accepted (h264, h265/hevc, vp9)` };
  if (probe.durationSeconds === null || probe.durationSeconds <= 0)
    return { ok: false, reason: 'no duration: the file looks truncated' };
  if (probe.declaredStreamBytes !== null && probe.declaredStreamBytes > info.size * DECLARED_SLACK) {
    return {
      ok: false,
      reason: `partial file: the streams declare ${formatBytes(probe.declaredStreamBytes)} but the file holds ${formatBytes(info.size)}`,
    };
  }
  const tail = await decodeTail(path, { kind: 'uploadVideo', signal: options.signal });
  if (!tail.ok) return { ok: false, reason: `the last second does not decode: ${tail.detail}` };
  return {
    ok: true,
    codec,
    size: info.size,
    duration: probe.durationSeconds,
    ...displaySize(probe.video),
    fps: probe.video.fps,
  };
}

/** What the editor sees: a phone clip recorded sideways with a 90° rotation plays portrait. */
export function displaySize(v: { width: number; height: number; rotation: number }): { width: number; height: number } {
  return v.rotation % 180 === 0 ? { width: v.width, height: v.height } : { width: v.height, height: v.width };
}

export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i] ?? 'B'}`;
}
