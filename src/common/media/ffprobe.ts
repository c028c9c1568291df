import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import { mediaInput, refusalMessage, refusedFormat, type InputKind } from './media-input';
import { ffprobePath } from './tools';

const run = promisify(execFile);

const streamSchema = z.object({
  index: z.number(),
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  profile: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  avg_frame_rate: z.string().optional(),
  r_frame_rate: z.string().optional(),
  duration: z.string().optional(),
  bit_rate: z.string().optional(),
  nb_frames: z.string().optional(),
  tags: z.record(z.string(), z.string()).optional(),
  side_data_list: z.array(z.record(z.string(), z.unknown())).optional(),
});

const probeSchema = z.object({
  streams: z.array(streamSchema).default([]),
  format: z
    .object({
      format_name: z.string().optional(),
      duration: z.string().optional(),
      size: z.string().optional(),
      bit_rate: z.string().optional(),
      tags: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});

export interface ProbeResult {
  container: string;
  durationSeconds: number | null;
  sizeBytes: number | null;
  /**
   * Bytes the streams declare (each stream's bit rate times its duration, where the container's index gives both):
   * more than the file holds means the media was cut short after its index (an mp4 with `+faststart`, then cut).
   */
  declaredStreamBytes: number | null;
  video: {
    codec: string;
    /** The codec's profile as ffprobe names it ("HQ" for ProRes 422 HQ), when it states one. */
    profile: string | null;
    width: number;
    height: number;
    fps: number | null;
    rotation: number;
  } | null;
  audio: { codec: string } | null;
  tags: Record<string, string>;
}

export class ProbeError extends Error {
  /** The file was read but is not accepted (a playlist, an image, lying timestamps...), as opposed to unreadable. */
  readonly refused: boolean;
  /** The format refused, when that is the reason. */
  readonly refusedFormat: string | null;
  constructor(message: string, options?: { cause?: unknown; refusedFormat?: string; refused?: boolean }) {
    super(message, options);
    this.name = 'ProbeError';
    this.refusedFormat = options?.refusedFormat ?? null;
    this.refused = options?.refused ?? this.refusedFormat !== null;
  }
}

function parseRate(rate: string | undefined): number | null {
  if (!rate) return null;
  const [num, den] = rate.split('/').map(Number);
  if (!num || !den) return null;
  return Math.round((num / den) * 1000) / 1000;
}

function parseNumber(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * ffprobe of a media file opened as `kind` (see media-input.ts): container, duration, first video/audio stream.
 * Throws ProbeError when unreadable or of a format `kind` does not allow.
 */
export async function ffprobe(file: string, options: { kind: InputKind; signal?: AbortSignal }): Promise<ProbeResult> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      ffprobePath(),
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...mediaInput(options.kind, file)],
      { maxBuffer: 8 * 1024 * 1024, signal: options.signal },
    ));
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    const refused = stderr ? refusedFormat(stderr) : null;
    if (refused) throw new ProbeError(refusalMessage(options.kind, refused), { cause: err, refusedFormat: refused });
    throw new ProbeError(stderr ? reasonFrom(stderr, file) : 'ffprobe could not read the file', { cause: err });
  }
  const parsed = probeSchema.safeParse(JSON.parse(stdout));
  if (!parsed.success) throw new ProbeError('ffprobe output not understood');
  const { streams, format } = parsed.data;
  const v = streams.find((s) => s.codec_type === 'video' && s.codec_name !== 'mjpeg' && s.codec_name !== 'png');
  const a = streams.find((s) => s.codec_type === 'audio');
  const rotation = rotationOf(v);
  return {
    container: format?.format_name ?? 'unknown',
    durationSeconds: parseNumber(format?.duration) ?? parseNumber(v?.duration),
    sizeBytes: parseNumber(format?.size),
    declaredStreamBytes: declaredBytes(streams),
    video: v?.codec_name
      ? {
          codec: v.codec_name,
          profile: v.profile ?? null,
          width: v.width ?? 0,
          height: v.height ?? 0,
          fps: parseRate(v.avg_frame_rate) ?? parseRate(v.r_frame_rate),
          rotation,
        }
      : null,
    audio: a?.codec_name ? { codec: a.codec_name } : null,
    tags: { ...(format?.tags ?? {}) },
  };
}

function declaredBytes(streams: z.infer<typeof streamSchema>[]): number | null {
  let total: number | null = null;
  for (const s of streams) {
    const rate = parseNumber(s.bit_rate);
    const seconds = parseNumber(s.duration);
    if (rate !== null && seconds !== null) total = (total ?? 0) + (rate * seconds) / 8;
  }
  return total === null ? null : Math.round(total);
}

function rotationOf(stream: z.infer<typeof streamSchema> | undefined): number {
  const fromTag = parseNumber(stream?.tags?.rotate);
  if (fromTag !== null) return fromTag;
  for (const side of stream?.side_data_list ?? []) {
    if (typeof side.rotation === 'number') return side.rotation;
  }
  return 0;
}

/**
 * ffprobe's or ffmpeg's complaint without stream prefixes, byte offsets or the file path: "moov atom not found;
 * Invalid data found...".
 */
export function reasonFrom(stderr: string, file: string): string {
  const lines = stderr
    .split('\n')
    .map((line) =>
      line
        .replace(/^\[[^\]]+\]\s*/, '')
        .replace(`file:${file}: `, '')
        .replace(`${file}: `, '')
        .replace(/offset 0x[0-9a-f]+: /, '')
        .trim(),
    )
    .filter(Boolean);
  return [...new Set(lines)].slice(0, 3).join('; ');
}
