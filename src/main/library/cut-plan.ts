import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import { ffprobePath } from '../../common/media/tools';
import { identityRate, type OriginalIdentity } from '../media/original-identity';
import { originalInput } from '../media/original-probe';
import { timecode } from '../../shared/timecode';
import type { ClipRow } from './clips-store';

const run = promisify(execFile);

/** Codecs whose every frame is a keyframe: any range of them stream-copies exactly. */
const INTRA_ONLY = new Set([
  'prores',
  'dnxhd',
  'mjpeg',
  'rawvideo',
  'v210',
  'v410',
  'cfhd',
  'ffv1',
  'dvvideo',
  'huffyuv',
]);

/** prores_ks profile numbers by ffprobe's profile names. */
const PRORES_PROFILES: Record<string, number> = { Proxy: 0, LT: 1, Standard: 2, HQ: 3, '4444': 4, '4444XQ': 5 };

/** How a clip is made from its source: streams copied, or the picture re-encoded in a codec family. */
export type CutVideo =
  | { type: 'copy' }
  | { type: 'prores'; profile: number; pixFmt: string }
  | { type: 'dnxhd'; bitRate: number | null; pixFmt: string }
  | { type: 'h264' };

export interface CutPlan {
  video: CutVideo;
  /** Sound copied (the source's own codec) or AAC. */
  audio: 'copy' | 'aac';
  /** The clip's start timecode (the original's start timecode + the cut's first frame); null when unknown. */
  timecode: string | null;
  /**
   * Where ffmpeg seeks: before opening the input (fast: from the keyframe before the cut), or by decoding from the
   * start. MPEG program and transport streams (AVCHD's .MTS) have no index, and a seek there can land past the last
   * keyframe before the cut and yield no picture at all.
   */
  seek: 'input' | 'output';
  /** Why, for the log. */
  reason: string;
}

/**
 * The cut of `clip` from a source whose identity is known. `copy` mode copies as before. `accurate` copies when the
 * range starts on a keyframe (every frame of an all-intra codec: ProRes, DNxHD, MJPEG...), so the clip is the
 * original's own frames; otherwise it re-encodes: MP4 clips in H.264 (the choice of H.264), MOV and MKV clips in the
 * original's codec family (ProRes stays prores_ks at the same profile, DNxHD stays DNxHD), else H.264. An MP4 takes
 * neither ProRes nor DNxHD nor PCM, so an MP4 clip of such an original is always H.264 with AAC.
 */
export function planCut(
  clip: Pick<ClipRow, 'mode' | 'format'>,
  id: OriginalIdentity | null,
  fromSeconds: number,
  keyframeAtStart: boolean,
): CutPlan {
  const seek = /mpegts|^mpeg$|mpegvideo/.test(id?.container ?? '') ? 'output' : 'input';
  return { ...planStreams(clip, id, fromSeconds, keyframeAtStart), seek };
}

function planStreams(
  clip: Pick<ClipRow, 'mode' | 'format'>,
  id: OriginalIdentity | null,
  fromSeconds: number,
  keyframeAtStart: boolean,
): Omit<CutPlan, 'seek'> {
  const rate = id ? identityRate(id) : null;
  const tc = id && rate ? timecode(id.startFrame + Math.round((fromSeconds * rate.num) / rate.den), rate) : null;
  const codec = id?.codec ?? null;
  const mp4 = clip.format === 'mp4';
  const mp4Safe = codec === 'h264' || codec === 'hevc';
  if (clip.mode === 'copy' && (!mp4 || mp4Safe || codec === null))
    return { video: { type: 'copy' }, audio: mp4 ? 'aac' : 'copy', timecode: tc, reason: 'copy mode' };
  const startsClean = (codec !== null && INTRA_ONLY.has(codec)) || keyframeAtStart;
  if (startsClean && (!mp4 || mp4Safe))
    return {
      video: { type: 'copy' },
      audio: mp4 ? 'aac' : 'copy',
      timecode: tc,
      reason: codec && INTRA_ONLY.has(codec) ? `${codec} is all-intra` : 'the range starts on a keyframe',
    };
  if (mp4 || !id) return { video: { type: 'h264' }, audio: 'aac', timecode: tc, reason: 'H.264 for an MP4 clip' };
  if (codec === 'prores')
    return {
      video: { type: 'prores', profile: PRORES_PROFILES[id.profile ?? ''] ?? 3, pixFmt: id.pixFmt ?? 'yuv422p10le' },
      audio: 'copy',
      timecode: tc,
      reason: 'ProRes stays ProRes',
    };
  if (codec === 'dnxhd')
    return {
      video: { type: 'dnxhd', bitRate: null, pixFmt: id.pixFmt ?? 'yuv422p' },
      audio: 'copy',
      timecode: tc,
      reason: 'DNxHD stays DNxHD',
    };
  return { video: { type: 'h264' }, audio: 'copy', timecode: tc, reason: 'long-GOP source not on a keyframe' };
}

const packetsSchema = z.object({
  packets: z.array(z.object({ pts_time: z.string().optional(), flags: z.string().optional() })).default([]),
  format: z.object({ start_time: z.string().optional() }).optional(),
});

/**
 * Whether the picture has a keyframe at `seconds` from its start (within half a frame): ffprobe seeks to the keyframe
 * at or before it and reads that one packet.
 */
export async function keyframeAt(path: string, seconds: number, fps: number, signal?: AbortSignal): Promise<boolean> {
  try {
    const { stdout } = await run(
      ffprobePath(),
      [
        ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags:format=start_time'],
        ...['-read_intervals', `${seconds.toFixed(6)}%+#1`, '-of', 'json', ...originalInput(path)],
      ],
      { signal, maxBuffer: 1024 * 1024 },
    );
    const parsed = packetsSchema.parse(JSON.parse(stdout));
    const start = Number(parsed.format?.start_time ?? 0) || 0;
    const first = parsed.packets[0];
    if (!first?.flags?.startsWith('K')) return false;
    return Math.abs(Number(first.pts_time) - start - seconds) < 0.5 / Math.max(1, fps);
  } catch {
    return false;
  }
}

/**
 * The plan for cutting `clip` from `path`: its identity (codec, profile, timecode) and whether the range starts on a
 * keyframe decide (see planCut). Without an identity (an unreadable file) the cut is planned as before.
 */
export async function planClipCut(
  clip: Pick<ClipRow, 'mode' | 'format'>,
  path: string,
  fromSeconds: number,
  id: OriginalIdentity | null,
  signal?: AbortSignal,
): Promise<CutPlan> {
  if (!id) return planCut(clip, null, fromSeconds, false);
  const rate = identityRate(id);
  const intra = id.codec !== null && INTRA_ONLY.has(id.codec);
  const keyframe = intra ? true : await keyframeAt(path, fromSeconds, rate.num / rate.den, signal);
  return planCut(clip, id, fromSeconds, keyframe);
}
