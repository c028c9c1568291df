import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';

const run = promisify(execFile);

const probeSchema = z.object({
  streams: z.array(
    z.object({
      codec_type: z.string(),
      codec_name: z.string().optional(),
      profile: z.string().optional(),
      pix_fmt: z.string().optional(),
      width: z.number().optional(),
      height: z.number().optional(),
      r_frame_rate: z.string().optional(),
      channels: z.number().optional(),
      tags: z.record(z.string(), z.string()).optional(),
    }),
  ),
  format: z.object({
    duration: z.string(),
    format_name: z.string(),
    tags: z.record(z.string(), z.string()).optional(),
  }),
});

/** What the proxy tests check of a made proxy, read back by ffprobe. */
export async function probeProxy(path: string) {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', path]);
  const { streams, format } = probeSchema.parse(JSON.parse(stdout));
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const timecodes = new Set(
    [format.tags, ...streams.map((s) => s.tags)].map((t) => t?.timecode).filter((t) => t !== undefined),
  );
  return {
    container: format.format_name,
    duration: Number(format.duration),
    codec: video?.codec_name,
    profile: video?.profile,
    pixFmt: video?.pix_fmt,
    width: video?.width,
    height: video?.height,
    rate: video?.r_frame_rate,
    audio: audio ? { codec: audio.codec_name, channels: audio.channels } : null,
    timecodes: [...timecodes],
  };
}

/** A rational frame rate (`30000/1001`) as frames per second. */
export function fpsOf(rate: string | undefined): number {
  const [n, d] = (rate ?? '0/1').split('/').map(Number);
  return (n ?? 0) / (d || 1);
}
