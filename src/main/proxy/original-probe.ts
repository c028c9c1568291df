import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import { mediaInput } from '../../common/media/media-input';
import { ffprobePath } from '../../common/media/tools';
import { reasonFrom } from '../../common/media/ffprobe';

const run = promisify(execFile);

const streamSchema = z.object({
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  r_frame_rate: z.string().optional(),
  avg_frame_rate: z.string().optional(),
  duration: z.string().optional(),
  channels: z.number().optional(),
  tags: z.record(z.string(), z.string()).optional(),
  disposition: z.record(z.string(), z.number()).optional(),
});
const probeSchema = z.object({
  streams: z.array(streamSchema).default([]),
  format: z.object({ duration: z.string().optional(), tags: z.record(z.string(), z.string()).optional() }).default({}),
});

/** What a proxy needs to know of a camera original. */
export interface OriginalProbe {
  codec: string;
  width: number;
  height: number;
  /** Frame rate as ffmpeg takes it on the command line (`25/1`, `30000/1001`). */
  rate: string;
  fps: number;
  duration: number;
  /** Start timecode from the video stream, the tmcd track or the container (MXF), else null. */
  timecode: string | null;
  audio: boolean;
}

export class OriginalProbeError extends Error {}

function rational(rate: string | undefined): { rate: string; fps: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(rate ?? '');
  if (!m) return null;
  const fps = Number(m[1]) / Number(m[2]);
  return Number.isFinite(fps) && fps > 0 && fps <= 240 ? { rate: `${m[1]}/${m[2]}`, fps } : null;
}

/** ffprobe of a camera original (MXF and MPEG-TS included); throws OriginalProbeError when it holds no decodable video. */
export async function probeOriginal(path: string, signal?: AbortSignal): Promise<OriginalProbe> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      ffprobePath(),
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...mediaInput('cameraOriginal', path)],
      { maxBuffer: 8 * 1024 * 1024, signal },
    ));
  } catch (err) {
    if (signal?.aborted) throw err;
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new OriginalProbeError(stderr ? reasonFrom(stderr, path) : 'ffprobe could not read the file');
  }
  const parsed = probeSchema.safeParse(JSON.parse(stdout));
  if (!parsed.success) throw new OriginalProbeError('ffprobe output not understood');
  const { streams, format } = parsed.data;
  const video = streams.find(
    (s) => s.codec_type === 'video' && s.codec_name && s.disposition?.attached_pic !== 1 && (s.width ?? 0) > 0,
  );
  if (!video?.codec_name) throw new OriginalProbeError('no video stream found');
  const rate = rational(video.r_frame_rate) ?? rational(video.avg_frame_rate);
  if (!rate) throw new OriginalProbeError(`no usable frame rate (${video.r_frame_rate ?? 'none'})`);
  const duration = Number(format.duration ?? video.duration);
  if (!Number.isFinite(duration) || duration <= 0)
    throw new OriginalProbeError('no duration: the file looks truncated');
  const timecode =
    [video.tags, ...streams.map((s) => s.tags), format.tags].map((t) => t?.timecode).find((t) => t !== undefined) ??
    null;
  return {
    codec: video.codec_name,
    width: video.width ?? 0,
    height: video.height ?? 0,
    ...rate,
    duration,
    timecode: timecode && /^\d\d:\d\d:\d\d[:;.]\d\d$/.test(timecode) ? timecode : null,
    audio: streams.some((s) => s.codec_type === 'audio' && (s.channels ?? 0) > 0),
  };
}
