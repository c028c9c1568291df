import { join } from 'node:path';
import { z } from 'zod';
import { mediaInput } from '../../common/media/media-input';
import { runTool } from './process';
import { ffmpegPath } from '../../common/media/tools';

/** A keyframe ffmpeg selected as the start of a segment (first frame, scene change, or max length reached). */
export interface CutFrame {
  time: number;
  file: string;
  width: number;
  height: number;
}

export interface SceneCutOptions {
  videoPath: string;
  workDir: string;
  maxSegmentSeconds: number;
  /** Scene score (0..1) above which a keyframe starts a new segment. */
  threshold?: number;
  /** Width of the keyframe JPEGs; smaller videos keep their width. */
  frameWidth?: number;
  signal?: AbortSignal;
  /** Seconds of video decoded so far. */
  onTime?: (seconds: number) => void;
}

export const KEYFRAME_WIDTH = 640;

/**
 * The same pass also writes a keyframe at most this often (key-000001.jpg, ...): a segment's later frame is taken from
 * these when one falls near its middle, instead of a seek that decodes from the keyframe before it again.
 */
export const KEY_SPACING_SECONDS = 0.9;

/** What the scene pass found: the keyframes that start a segment, and keyframes spread through the video. */
export interface SceneFrames {
  cuts: CutFrame[];
  keys: CutFrame[];
}

const showinfoSchema = z.object({
  n: z.coerce.number().int().nonnegative(),
  time: z.coerce.number().finite(),
  width: z.coerce.number().int().positive(),
  height: z.coerce.number().int().positive(),
});

const SHOWINFO = /^\[showinfo@(cuts|keys) @ [^\]]*\]\s*n:\s*(\d+)\s.*?\bpts_time:\s*(-?[\d.]+)\s.*?\bs:(\d+)x(\d+)/;

/** The scale filter that keyframes and seek-extracted frames share, so every frame of a video has one size. */
export function scaleFilter(width = KEYFRAME_WIDTH): string {
  return `scale='min(${width},iw)':-2`;
}

/**
 * One ffmpeg pass that decodes keyframes only (`-skip_frame nokey`, the cheap part of a decode), scores scene change
 * between consecutive keyframes on a downscaled copy, and writes a JPEG for the keyframes that start a segment.
 * Cuts therefore fall on keyframes: encoders put one at hard cuts, and phone footage has one every second or so. The
 * keyframes it decodes anyway are also written every KEY_SPACING_SECONDS (a JPEG of the scaled frame costs ~2 ms, a
 * seek that decodes 1080p again from the keyframe before ~70 ms); the caller deletes those it does not use.
 */
export async function detectSceneCuts(options: SceneCutOptions): Promise<SceneFrames> {
  const {
    videoPath,
    workDir,
    maxSegmentSeconds,
    threshold = 0.3,
    frameWidth = KEYFRAME_WIDTH,
    signal,
    onTime,
  } = options;
  // Commas inside filter expressions must be escaped; the small epsilon keeps 10.0 - 1e-9 from missing a cut.
  const select = `select='eq(n\\,0)+gt(scene\\,${threshold})+gte(t-prev_selected_t\\,${maxSegmentSeconds - 0.001})'`;
  const { stderr } = await runTool(
    ffmpegPath(),
    [
      '-hide_banner',
      '-nostats',
      '-loglevel',
      'info',
      ...mediaInput('storedVideo', videoPath, ['-skip_frame', 'nokey']),
      '-an',
      '-sn',
      '-dn',
      // Each keyframe is doubled (split + interleave) before select: the scene score is min(change, change in
      // change) between consecutive frames, so without a still copy in between, a cut right after another cut
      // (slideshows, fast edits, seen keyframe to keyframe) scored 0.1 instead of 0.5.
      // yuvj420p on the spread keyframes as in frames.ts: their JPEGs come out as a seek-extracted frame's.
      '-filter_complex',
      `[0:v]${scaleFilter(frameWidth)},split[s][k];[s]split[a][b];[a][b]interleave,${select},showinfo@cuts[c];` +
        `[k]select='isnan(prev_selected_t)+gte(t-prev_selected_t\\,${KEY_SPACING_SECONDS})',format=yuvj420p,showinfo@keys[l]`,
      // -vsync, not its successor -fps_mode (ffmpeg 5.1+): the ffmpeg bundled with packaged apps (@ffmpeg-installer) is 4.1.
      '-vsync',
      'passthrough',
      '-progress',
      'pipe:1',
      ...['-map', '[c]', '-q:v', '4', join(workDir, 'cut-%06d.jpg')],
      ...['-map', '[l]', '-q:v', '4', join(workDir, 'key-%06d.jpg')],
    ],
    {
      signal,
      onStdoutLine: (line) => {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (m && onTime) onTime(Number(m[1]) / 1e6);
      },
    },
  );
  return parseShowinfo(stderr, workDir);
}

/** Frames from showinfo lines; the n-th frame shown by showinfo@cuts was written as cut-(n+1).jpg, @keys as key-. */
export function parseShowinfo(stderr: string, workDir: string): SceneFrames {
  const found: SceneFrames = { cuts: [], keys: [] };
  for (const line of stderr.split('\n')) {
    const m = SHOWINFO.exec(line);
    if (!m) continue;
    const cut = m[1] === 'cuts';
    const info = showinfoSchema.parse({ n: m[2], time: m[3], width: m[4], height: m[5] });
    (cut ? found.cuts : found.keys).push({
      time: Math.max(0, info.time),
      file: join(workDir, `${cut ? 'cut' : 'key'}-${String(info.n + 1).padStart(6, '0')}.jpg`),
      width: info.width,
      height: info.height,
    });
  }
  return found;
}
