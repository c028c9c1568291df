import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mediaInput } from '../../common/media/media-input';
import { unreachable } from '../../shared/errors';
import type { ClipRow } from './clips-store';
import { ffmpegPath } from '../../common/media/tools';

const run = promisify(execFile);

export type CutMode = ClipRow['mode'];
export type CutFormat = ClipRow['format'];

export interface CutRange {
  /** Seconds in the source where the file starts (the hit's start minus handles, clamped). */
  from: number;
  /** Length of the file, seconds. */
  duration: number;
}

/** The hit's [start, end] widened by `handles` on both sides, clamped to [0, sourceDuration]. */
export function cutRange(start: number, end: number, handles: number, sourceDuration: number | null): CutRange {
  const from = Math.max(0, start - handles);
  const limit = sourceDuration ?? Number.POSITIVE_INFINITY;
  const to = Math.min(limit, end + handles);
  if (!(to > from)) throw new Error(`the range ${start}-${end}s lies outside the video (${sourceDuration ?? '?'} s)`);
  return { from, duration: to - from };
}

/** ffmpeg's seconds with millisecond precision (never exponent notation). */
function secs(n: number): string {
  return n.toFixed(6);
}

/**
 * ffmpeg arguments for one cut. `accurate` decodes from the keyframe before `from` and re-encodes (h264 + aac, or the
 * same in mov/mkv), so the file starts on the exact frame; `copy` copies the streams untouched: fast, no quality loss,
 * but it can only start on a keyframe at or before `from`.
 */
export function cutArgs(source: string, out: string, range: CutRange, mode: CutMode, format: CutFormat): string[] {
  const input = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-y',
    ...mediaInput('storedVideo', source, ['-ss', secs(range.from)]),
    '-t',
    secs(range.duration),
  ];
  const maps = ['-map', '0:v:0', '-map', '0:a?', '-sn', '-dn'];
  const container =
    format === 'mkv'
      ? ['-f', 'matroska']
      : format === 'mov'
        ? ['-f', 'mov', '-movflags', '+faststart']
        : ['-f', 'mp4', '-movflags', '+faststart'];
  switch (mode) {
    case 'accurate':
      return [
        ...input,
        ...maps,
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '18',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-b:a',
        '192k',
        ...container,
        out,
      ];
    case 'copy':
      return [...input, ...maps, '-c', 'copy', '-avoid_negative_ts', 'make_zero', ...container, out];
    default:
      throw unreachable(mode);
  }
}

export async function cut(
  source: string,
  out: string,
  range: CutRange,
  mode: CutMode,
  format: CutFormat,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await run(ffmpegPath(), cutArgs(source, out, range, mode, format), { signal, maxBuffer: 4 * 1024 * 1024 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`ffmpeg could not cut ${source}${stderr ? `: ${stderr.split('\n').slice(-3).join('; ')}` : ''}`, {
      cause: err,
    });
  }
}

/** A JPEG still of `source` at `at` seconds, `width` wide. */
export async function still(source: string, at: number, out: string, width = 320, signal?: AbortSignal): Promise<void> {
  await run(
    ffmpegPath(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-y',
      ...mediaInput('storedVideo', source, ['-ss', secs(Math.max(0, at))]),
      '-frames:v',
      '1',
      '-vf',
      `scale=${width}:-2`,
      '-q:v',
      '4',
      '-f',
      'image2',
      out,
    ],
    { signal, maxBuffer: 1024 * 1024 },
  );
}
