import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mediaInput } from '../../common/media/media-input';
import { unreachable } from '../../shared/errors';
import type { ClipRow } from './clips-store';
import { ffmpegPath } from '../../common/media/tools';
import { originalInput } from '../media/original-probe';
import type { CutPlan, CutVideo } from './cut-plan';

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

/** The plan of a cut made without knowing the source: `accurate` re-encodes in H.264, `copy` copies. */
export function defaultPlan(mode: CutMode): CutPlan {
  switch (mode) {
    case 'accurate':
      return { video: { type: 'h264' }, audio: 'aac', timecode: null, seek: 'input', reason: 'accurate' };
    case 'copy':
      return { video: { type: 'copy' }, audio: 'copy', timecode: null, seek: 'input', reason: 'copy' };
    default:
      throw unreachable(mode);
  }
}

function videoArgs(v: CutVideo): string[] {
  switch (v.type) {
    case 'copy':
      return ['-c:v', 'copy'];
    case 'h264':
      return ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-pix_fmt', 'yuv420p'];
    case 'prores':
      return ['-c:v', 'prores_ks', '-profile:v', String(v.profile), '-pix_fmt', v.pixFmt];
    case 'dnxhd':
      return ['-c:v', 'dnxhd', '-profile:v', 'dnxhr_hq', '-pix_fmt', v.pixFmt];
    default:
      throw unreachable(v);
  }
}

/**
 * ffmpeg arguments for one cut, by `plan` (see cut-plan.ts; without one, `accurate` decodes from the keyframe before
 * `from` and re-encodes in H.264 + AAC so the file starts on the exact frame, `copy` copies the streams: fast and
 * lossless but starting on a keyframe at or before `from`). The source opens as a camera original may be (MXF, MPEG-TS
 * and the rest); the clip carries the plan's timecode, the original's at its first frame.
 */
export function cutArgs(
  source: string,
  out: string,
  range: CutRange,
  mode: CutMode,
  format: CutFormat,
  plan: CutPlan = defaultPlan(mode),
): string[] {
  const input = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-y',
    ...(plan.seek === 'input' ? originalInput(source, ['-ss', secs(range.from)]) : originalInput(source)),
    ...(plan.seek === 'output' ? ['-ss', secs(range.from)] : []),
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
  const audio = plan.audio === 'copy' ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '192k'];
  const copying = plan.video.type === 'copy' ? ['-avoid_negative_ts', 'make_zero'] : [];
  const timecode = plan.timecode ? ['-timecode', plan.timecode] : [];
  return [...input, ...maps, ...videoArgs(plan.video), ...audio, ...copying, ...timecode, ...container, out];
}

export async function cut(
  source: string,
  out: string,
  range: CutRange,
  mode: CutMode,
  format: CutFormat,
  signal?: AbortSignal,
  plan?: CutPlan,
): Promise<void> {
  try {
    await run(ffmpegPath(), cutArgs(source, out, range, mode, format, plan), { signal, maxBuffer: 4 * 1024 * 1024 });
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
