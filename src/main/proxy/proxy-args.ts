import { mediaInput } from '../../common/media/media-input';
import { UPLOAD_LIMITS } from '../../shared/api-types';
import { PROXY_WIDTHS, type ProxyWidth } from '../../shared/contract/settings';
import type { EncoderSpec } from './encoders';
import type { OriginalProbe } from '../media/original-probe';

export { PROXY_WIDTHS, type ProxyWidth };
export const DEFAULT_PROXY_WIDTH: ProxyWidth = 1280;

/** Quality ceilings for short takes, per width: enough for search (faces, text on screen), not for grading. */
const MAX_VIDEO_BPS: Record<ProxyWidth, number> = { 960: 3_000_000, 1280: 5_000_000, 1920: 8_000_000 };
export const AUDIO_BPS = 128_000;
/** The share of the library's size limit a proxy may use: rate control overshoots a little, the mp4 index adds some. */
const SIZE_SHARE = 0.9;

/** Output size: `width` or the original's if narrower (never upscaled), aspect kept, both even. */
export function proxySize(original: { width: number; height: number }, width: ProxyWidth): { w: number; h: number } {
  const w = Math.max(2, Math.floor(Math.min(width, original.width) / 2) * 2);
  const h = Math.max(2, Math.round((original.height * w) / original.width / 2) * 2);
  return { w, h };
}

/** Video bit rate so that a proxy of `seconds` stays under the upload limit (a 6-hour take included). */
export function videoBitrate(seconds: number, width: ProxyWidth, audio: boolean, limitBytes = UPLOAD_LIMITS.maxBytes) {
  const budget = Math.floor((limitBytes * SIZE_SHARE * 8) / Math.max(seconds, 1)) - (audio ? AUDIO_BPS : 0);
  return Math.max(100_000, Math.min(MAX_VIDEO_BPS[width], budget));
}

/**
 * ffmpeg arguments making the H.264 proxy of `input` into `output` (mp4): High profile 4:2:0 8-bit, constant frame
 * rate equal to the original's, AAC stereo when it has sound, its start timecode and metadata kept, index first.
 * Progress goes to stdout as `-progress` key=value lines.
 */
export function proxyArgs(o: {
  input: string;
  output: string;
  original: OriginalProbe;
  width: ProxyWidth;
  encoder: EncoderSpec;
}): string[] {
  const { w, h } = proxySize(o.original, o.width);
  const bps = videoBitrate(o.original.duration, o.width, o.original.audio);
  const fps = o.original.fps;
  return [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y'],
    ...mediaInput('cameraOriginal', o.input, o.encoder.beforeInput),
    ...['-map', '0:v:0', ...(o.original.audio ? ['-map', '0:a:0'] : [])],
    ...['-vf', `scale=${w}:${h}:flags=bicubic,setsar=1,${o.encoder.filterTail}`],
    // -vsync rather than -fps_mode: the bundled ffmpeg predates -fps_mode (5.1), later ones still take -vsync.
    ...['-vsync', 'cfr', '-r', o.original.rate],
    ...o.encoder.codec(bps),
    ...['-g', String(Math.max(1, Math.round(fps * 2)))],
    ...(o.original.audio ? ['-c:a', 'aac', '-b:a', String(AUDIO_BPS), '-ac', '2'] : ['-an']),
    ...(o.original.timecode ? ['-timecode', o.original.timecode] : []),
    ...['-map_metadata', '0', '-movflags', '+faststart'],
    ...['-progress', 'pipe:1', '-nostats', '-f', 'mp4', o.output],
  ];
}
