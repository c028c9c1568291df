import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { ffprobe, ProbeError } from '../../common/media/ffprobe';
import { decodeTail } from '../../common/media/tail-decode';
import { fileSignature } from './media-signature';
import { UPLOAD_LIMITS } from '../../shared/api-types';
import { CAMERA_EXTENSIONS, RAW_EXTENSIONS, rawFormatProblem } from '../proxy/camera-formats';
import { OriginalProbeError, probeOriginal, type OriginalProbe } from '../media/original-probe';

export type Validation =
  | { ok: true; codec: string; size: number; duration: number; width: number; height: number; fps: number | null }
  /** `proxyable`: refused for its codec, container or size only, so a search proxy may stand in for it. */
  | { ok: false; reason: string; proxyable?: true };

const ACCEPTED_CODECS: readonly string[] = UPLOAD_LIMITS.codecs;
const ACCEPTED_EXTENSIONS: readonly string[] = UPLOAD_LIMITS.extensions;

/** The library's extension check alone (no I/O): the reason when the library refuses the name, else null. */
function libraryExtensionProblem(path: string): string | null {
  const ext = extname(path).toLowerCase();
  if (ACCEPTED_EXTENSIONS.includes(ext)) return null;
  return `extension ${ext || '(none)'} is not accepted (${ACCEPTED_EXTENSIONS.join(', ')})`;
}

/**
 * Name check alone (no I/O): the reason when the name rules the file out, else null. Camera originals (MXF, MTS...)
 * pass, they may get a search proxy, and so do camera raw files, to be skipped with a reason naming the maker's tool.
 */
export function extensionProblem(path: string): string | null {
  const ext = extname(path).toLowerCase();
  if (CAMERA_EXTENSIONS.includes(ext) || RAW_EXTENSIONS.includes(ext)) return null;
  return libraryExtensionProblem(path);
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
  const byName = libraryExtensionProblem(path);
  if (byName) return { ok: false, reason: byName, proxyable: true };
  const info = await stat(path);
  if (!info.isFile()) return { ok: false, reason: 'not a regular file' };
  if (info.size === 0) return { ok: false, reason: 'empty file (0 bytes)' };
  const maxBytes = options.maxBytes ?? UPLOAD_LIMITS.maxBytes;
  if (info.size > maxBytes)
    return {
      ok: false,
      reason: `too large: ${formatBytes(info.size)} (the limit is ${formatBytes(maxBytes)})`,
      proxyable: true,
    };
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
    if (err instanceof ProbeError) return { ok: false, reason: await unreadableReason(path, err.message) };
    throw err;
  }
  if (!probe.video) return { ok: false, reason: 'no video stream found' };
  const codec = probe.video.codec.toLowerCase();
  if (!ACCEPTED_CODECS.includes(codec))
    return {
      ok: false,
      // The profile in parentheses: plain-reasons.ts names the codec as editors know it ("Apple ProRes 422 HQ").
      reason: `video codec ${codec}${probe.video.profile ? ` (${probe.video.profile})` : ''} is not accepted (h264, h265/hevc, vp9)`,
      proxyable: true,
    };
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

export type Verdict =
  | { action: 'upload'; video: Extract<Validation, { ok: true }> }
  /** The library refuses it (`why`), ffmpeg decodes it: a search proxy is uploaded in its place. */
  | { action: 'proxy'; why: string; size: number; original: OriginalProbe }
  | { action: 'skip'; reason: string };

/**
 * What becomes of a stable file: uploaded as it is when the library takes it, proxied when the library refuses it
 * for its codec, container or size but ffmpeg decodes it whole, skipped otherwise (camera raw, damaged, not a video).
 */
export async function decideVideo(
  path: string,
  options: { signal?: AbortSignal; maxBytes?: number } = {},
): Promise<Verdict> {
  const raw = rawFormatProblem(path);
  if (raw) return { action: 'skip', reason: raw };
  const validation = await validateVideo(path, options);
  if (validation.ok) return { action: 'upload', video: validation };
  if (!validation.proxyable) return { action: 'skip', reason: validation.reason };
  const info = await stat(path);
  if (info.size === 0) return { action: 'skip', reason: 'empty file (0 bytes)' };
  let original: OriginalProbe;
  try {
    original = await probeOriginal(path, options.signal);
  } catch (err) {
    if (options.signal?.aborted || !(err instanceof OriginalProbeError)) throw err;
    return { action: 'skip', reason: await unreadableReason(path, err.message) };
  }
  const tail = await decodeTail(path, { kind: 'cameraOriginal', signal: options.signal });
  if (!tail.ok && !startsMidGop(tail.detail))
    return { action: 'skip', reason: `the last second does not decode: ${tail.detail}` };
  return { action: 'proxy', why: validation.reason, size: info.size, original };
}

/**
 * Why ffprobe could not read a file, decided by what the file holds: a container's header means a video cut short or
 * damaged ("moov atom not found" on an interrupted copy); text or other data means it is no video at all, whatever its
 * name says (a note saved as .mp4 gets the same ffprobe message as a cut MP4).
 */
async function unreadableReason(path: string, probeMessage: string): Promise<string> {
  const kind = await fileSignature(path).catch(() => 'media' as const);
  if (kind === 'media') return `not a readable video (truncated or corrupt?): ${probeMessage}`;
  return `not a video file (its content is ${kind === 'text' ? 'text' : 'no video container'}): ${probeMessage}`;
}

/**
 * Long-GOP streams without an index (MPEG-TS, AVCHD) are entered mid-GOP by `-sseof`: the decoder complains of the
 * reference frames it never saw. Only those complaints, nothing about missing data, is a whole file.
 */
const MID_GOP =
  /^(co located POCs unavailable|mmco: unref short failure|Missing reference picture.*|reference picture missing.*|number of reference frames .*|illegal short term buffer.*|Could not find ref with POC.*)$/;

function startsMidGop(detail: string): boolean {
  return detail.split('; ').every((line) => MID_GOP.test(line));
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
