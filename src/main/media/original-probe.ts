import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import { mediaInput } from '../../common/media/media-input';
import { reasonFrom } from '../../common/media/ffprobe';
import { ffprobePath } from '../../common/media/tools';

const run = promisify(execFile);

/** ffmpeg/ffprobe input arguments for a camera original: the file protocol only, its containers whitelisted. */
export function originalInput(path: string, before: readonly string[] = []): string[] {
  return mediaInput('cameraOriginal', path, before);
}

const tags = z.record(z.string(), z.string()).optional();
const probeSchema = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        codec_name: z.string().optional(),
        codec_tag_string: z.string().optional(),
        profile: z.string().optional(),
        pix_fmt: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
        r_frame_rate: z.string().optional(),
        avg_frame_rate: z.string().optional(),
        sample_rate: z.string().optional(),
        tags,
      }),
    )
    .default([]),
  format: z.object({ format_name: z.string().optional(), duration: z.string().optional(), tags }).optional(),
});
export type OriginalProbe = z.infer<typeof probeSchema>;

/** ffprobe's streams and format of a camera original, with every tag (timecode, reel_name, time_reference...). */
export async function probeOriginal(path: string, signal?: AbortSignal): Promise<OriginalProbe> {
  try {
    const { stdout } = await run(
      ffprobePath(),
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...originalInput(path)],
      { maxBuffer: 8 * 1024 * 1024, signal },
    );
    return probeSchema.parse(JSON.parse(stdout));
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`ffprobe could not read ${path}${stderr ? `: ${reasonFrom(stderr, path)}` : ''}`, { cause: err });
  }
}
