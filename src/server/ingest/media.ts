import { ProbeError, type ProbeResult } from '../../common/media/ffprobe';
import { probeWithTrustedDuration } from '../../common/media/probe-duration';
import { OperationFailure } from './operation-failure';

/** The contract's container list, by file extension (mp4, m4v, mov, mkv, webm, avi, flv, f4v, wmv, mpg, mpeg, 3gp, ts, m2ts). */
export const CONTAINER_EXTENSIONS = [
  '.mp4',
  '.m4v',
  '.mov',
  '.mkv',
  '.webm',
  '.avi',
  '.flv',
  '.f4v',
  '.wmv',
  '.mpg',
  '.mpeg',
  '.3gp',
  '.ts',
  '.m2ts',
];

/** ffprobe's demuxer names for those containers (the first name of format_name). */
const DEMUXERS = new Set(['mov', 'matroska', 'avi', 'flv', 'asf', 'mpeg', 'mpegts', 'mpegvideo']);

export const MAX_MEDIA_BYTES = 3 * 1024 ** 3;

/** Declared types that may be a video: anything video/*, or a generic binary type left to the probe. */
export function mayBeVideoType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    type === '' ||
    type.startsWith('video/') ||
    type === 'application/octet-stream' ||
    type === 'binary/octet-stream' ||
    type === 'application/mp4'
  );
}

export function extensionAllowed(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return true; // no extension: the probe decides
  return CONTAINER_EXTENSIONS.includes(name.slice(dot).toLowerCase());
}

/** Probes a stored file: a readable video container with a video stream and a duration, or unsupported_media. */
export async function checkMedia(
  path: string,
  signal?: AbortSignal,
): Promise<ProbeResult & { durationSeconds: number }> {
  let probe: ProbeResult;
  try {
    probe = await probeWithTrustedDuration(path, 'storedVideo', signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof ProbeError && err.refused)
      throw new OperationFailure('unsupported_media', `not accepted: ${err.message}`);
    throw new OperationFailure(
      'unsupported_media',
      `not a readable video: ${err instanceof ProbeError ? err.message : 'unreadable'}`,
    );
  }
  const demuxer = probe.container.split(',')[0] ?? '';
  if (!DEMUXERS.has(demuxer))
    throw new OperationFailure(
      'unsupported_media',
      `container ${probe.container || 'unknown'} is not a supported video format`,
    );
  if (!probe.video) throw new OperationFailure('unsupported_media', 'the file has no video stream');
  const duration = probe.durationSeconds;
  if (duration === null || !(duration > 0))
    throw new OperationFailure('unsupported_media', 'the video has no duration');
  return { ...probe, durationSeconds: duration };
}
