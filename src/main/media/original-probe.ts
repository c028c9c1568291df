import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import { reasonFrom } from '../../common/media/ffprobe';
import { mediaInput } from '../../common/media/media-input';
import { ffprobePath } from '../../common/media/tools';

/**
 * The one ffprobe of a camera original (MXF and MPEG-TS included): every stream and tag as the identity reads them
 * (probeOriginalStreams), and what a proxy needs to know, checked (probeOriginal). Both pick the same picture stream,
 * frame rate and start timecode, so a proxy carries the timecode its original's identity names.
 */

const run = promisify(execFile);

/** ffmpeg/ffprobe input arguments for a camera original: the file protocol only, its containers whitelisted. */
export function originalInput(path: string, before: readonly string[] = []): string[] {
  return mediaInput('cameraOriginal', path, before);
}

const tags = z.record(z.string(), z.string()).optional();
const streamSchema = z.object({
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  codec_tag_string: z.string().optional(),
  profile: z.string().optional(),
  pix_fmt: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  r_frame_rate: z.string().optional(),
  avg_frame_rate: z.string().optional(),
  duration: z.string().optional(),
  channels: z.number().optional(),
  sample_rate: z.string().optional(),
  tags,
  disposition: z.record(z.string(), z.number()).optional(),
});
const streamsSchema = z.object({
  streams: z.array(streamSchema).default([]),
  format: z.object({ format_name: z.string().optional(), duration: z.string().optional(), tags }).default({}),
});
/** ffprobe's streams and format of a camera original, with every tag (timecode, reel_name, time_reference...). */
export type OriginalStreams = z.infer<typeof streamsSchema>;
type Stream = OriginalStreams['streams'][number];

export class OriginalProbeError extends Error {}

/** Every stream and tag of the file, whatever it holds; throws OriginalProbeError when ffprobe cannot read it. */
export async function probeOriginalStreams(path: string, signal?: AbortSignal): Promise<OriginalStreams> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      ffprobePath(),
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...originalInput(path)],
      { maxBuffer: 8 * 1024 * 1024, signal },
    ));
  } catch (err) {
    if (signal?.aborted) throw err;
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new OriginalProbeError(stderr ? reasonFrom(stderr, path) : 'ffprobe could not read the file', { cause: err });
  }
  let json: unknown = null;
  try {
    json = JSON.parse(stdout);
  } catch {
    // Not JSON: reported below as output not understood.
  }
  const parsed = streamsSchema.safeParse(json);
  if (!parsed.success) throw new OriginalProbeError('ffprobe output not understood');
  return parsed.data;
}

/** The picture: the first sized video stream that is not a cover image (attached_pic, as an MJPEG or PNG poster). */
export function pictureStream(p: OriginalStreams): Stream | undefined {
  return p.streams.find(
    (s) => s.codec_type === 'video' && s.codec_name && s.disposition?.attached_pic !== 1 && (s.width ?? 0) > 0,
  );
}

function rational(rate: string | undefined): { rate: string; fps: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(rate ?? '');
  if (!m) return null;
  const fps = Number(m[1]) / Number(m[2]);
  return Number.isFinite(fps) && fps > 0 && fps <= 240 ? { rate: `${m[1]}/${m[2]}`, fps } : null;
}

/** The stream's frame rate as ffmpeg takes it (`25/1`, `30000/1001`): its r_frame_rate, else its average. */
export function frameRate(stream: Stream | undefined): { rate: string; fps: number } | null {
  return rational(stream?.r_frame_rate) ?? rational(stream?.avg_frame_rate);
}

/**
 * The start timecode the file carries and where: a QuickTime tmcd track first, then the picture's (or another
 * stream's) tag, then the container's (MXF).
 */
export function embeddedTimecode(p: OriginalStreams): { text: string; source: 'tmcd' | 'mxf' | 'stream' } | null {
  const container = p.format.format_name ?? '';
  const tmcd = p.streams.find((s) => s.codec_tag_string === 'tmcd' && s.tags?.timecode)?.tags?.timecode;
  if (tmcd) return { text: tmcd, source: 'tmcd' };
  const text =
    p.streams.find((s) => s.codec_type === 'video' && s.tags?.timecode)?.tags?.timecode ??
    p.streams.find((s) => s.tags?.timecode)?.tags?.timecode ??
    p.format.tags?.timecode ??
    p.format.tags?.TIMECODE;
  if (!text) return null;
  return { text, source: container.includes('mxf') ? 'mxf' : container.includes('mov') ? 'tmcd' : 'stream' };
}

/** What a proxy needs to know of a camera original. */
export interface OriginalProbe {
  codec: string;
  width: number;
  height: number;
  /** Frame rate as ffmpeg takes it on the command line (`25/1`, `30000/1001`). */
  rate: string;
  fps: number;
  duration: number;
  /** Start timecode from the tmcd track, the video stream or the container (MXF), else null. */
  timecode: string | null;
  audio: boolean;
}

/** The file's picture, rate, length, timecode and sound; throws OriginalProbeError when it holds no usable video. */
export function proxySource(p: OriginalStreams): OriginalProbe {
  const video = pictureStream(p);
  if (!video?.codec_name) throw new OriginalProbeError('no video stream found');
  const rate = frameRate(video);
  if (!rate) throw new OriginalProbeError(`no usable frame rate (${video.r_frame_rate ?? 'none'})`);
  const duration = Number(p.format.duration ?? video.duration);
  if (!Number.isFinite(duration) || duration <= 0)
    throw new OriginalProbeError('no duration: the file looks truncated');
  const timecode = embeddedTimecode(p)?.text ?? null;
  return {
    codec: video.codec_name,
    width: video.width ?? 0,
    height: video.height ?? 0,
    ...rate,
    duration,
    timecode: timecode && /^\d\d:\d\d:\d\d[:;.]\d\d$/.test(timecode) ? timecode : null,
    audio: p.streams.some((s) => s.codec_type === 'audio' && (s.channels ?? 0) > 0),
  };
}

/** ffprobe of a camera original for its proxy; throws OriginalProbeError when it holds no decodable video. */
export async function probeOriginal(path: string, signal?: AbortSignal): Promise<OriginalProbe> {
  return proxySource(await probeOriginalStreams(path, signal));
}
