import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { balancedSplit, type KeyframeSize } from './keyframe-sizes';
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
  /** The probe's duration: a long video is scanned in two halves at once (detectSceneCuts). */
  durationSeconds?: number;
  /** 1: one pass whatever the duration; 2: two halves (given a duration). Default: by duration and cores. */
  parts?: 1 | 2;
  /** The keyframes' sizes (keyframe-sizes.ts): the halves are then split by decoding work, else by time. */
  keyframes?: KeyframeSize[];
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

/** A video at least this long is scanned as two halves at once (see detectSceneCuts); a shorter one in one pass. */
export const SPLIT_MIN_SECONDS = 20;

/**
 * Split by time (keyframes unknown), the second part's scan starts this far before its first frame, so that frame
 * has a keyframe before it to score against.
 */
const CONTEXT_SECONDS = 0.5;

/**
 * Scene cuts and spread keyframes (see scanPart). ffmpeg decodes the keyframes of a pass on one thread whatever its
 * -threads (1,300 of its 1,500 CPU ms on the 60 s 1080p take, most of the segmenting stage, during which the second
 * core sat idle), so a video of known duration of at least SPLIT_MIN_SECONDS is scanned as two parts by two ffmpeg
 * runs at once (`parts` 2; 1 forces one pass), split where each has about half the decoding work when `keyframes`
 * gives their sizes (a minute of footage can hold one costly stretch: grain, foliage, water), else at half the
 * duration. The parts give the cuts one pass gives: the second starts a keyframe early so its first frame is scored
 * against the keyframe before it, and a cut by length (no scene change for maxSegmentSeconds) that the first part's
 * last cut calls for inside the second part, before its first scene cut, is the second part's first spread keyframe
 * that far on (every keyframe when they are at least KEY_SPACING_SECONDS apart, as in phone footage).
 */
export async function detectSceneCuts(options: SceneCutOptions): Promise<SceneFrames> {
  const split = splitPoint(options);
  if (split === null) return scanPart(options, WHOLE);
  const { at: half, seekTo } = split;
  const decoded = [0, 0];
  const onTime = (part: number, seconds: number): void => {
    decoded[part] = seconds;
    options.onTime?.((decoded[0] ?? 0) + (decoded[1] ?? 0));
  };
  // One failing half stops the other: its answer is no use alone.
  const both = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, both.signal]) : both.signal;
  const scan = (range: PartRange, part: number): Promise<SceneFrames> =>
    scanPart({ ...options, signal, onTime: (s) => onTime(part, s) }, range).catch((err: unknown) => {
      both.abort(err);
      throw err;
    });
  // allSettled: after a failure neither ffmpeg may still be writing into workDir when this returns.
  const [first, second] = await Promise.allSettled([
    scan({ prefix: '', seekTo: 0, from: 0, to: half }, 0),
    scan({ prefix: 'b-', seekTo, from: half, to: null }, 1),
  ]);
  if (first.status === 'rejected') throw first.reason;
  if (second.status === 'rejected') throw second.reason;
  return joinHalves(first.value, second.value, options.maxSegmentSeconds);
}

/**
 * Where the scan is split in two, and where the second part's scan seeks to (its first keyframe is at or before that:
 * it is decoded twice, so only one is); null for one pass. In whole ms: ffmpeg is given times with three decimals.
 */
function splitPoint({
  durationSeconds: duration,
  parts,
  keyframes,
}: SceneCutOptions): { at: number; seekTo: number } | null {
  if (parts === 1 || duration === undefined || !(duration > 0)) return null;
  if (parts === undefined && (duration < SPLIT_MIN_SECONDS || availableParallelism() < 2)) return null;
  const ms = (t: number): number => Math.max(0, Math.round(t * 1000) / 1000);
  const balanced = keyframes ? balancedSplit(keyframes) : null;
  // Midway between two keyframes: seeking there lands on the one before, the context the second part needs.
  const split =
    balanced === null
      ? { at: duration / 2, seekTo: duration / 2 - CONTEXT_SECONDS }
      : { at: balanced, seekTo: balanced };
  // A part shorter than a second would cost an ffmpeg start-up for next to nothing.
  if (!(split.at >= 1 && split.at <= duration - 1)) return null;
  return { at: ms(split.at), seekTo: ms(split.seekTo) };
}

/** Which stretch of the video one scan covers: keyframes at [from, to) (to null: the end), read from seekTo on. */
interface PartRange {
  /** Prepended to the JPEG names (cut-, key-), so two scans in one folder do not overwrite each other's. */
  prefix: string;
  seekTo: number;
  from: number;
  to: number | null;
}

const WHOLE: PartRange = { prefix: '', seekTo: 0, from: 0, to: null };

/**
 * The second half's cuts after the first's, with the cuts by length the second half could not know of (its scan did
 * not see the first half's last cut): from its spread keyframes, before its first scene cut. A spread keyframe taken
 * as a cut is no longer a spread one (a file serves one segment).
 */
export function joinHalves(first: SceneFrames, second: SceneFrames, maxSegmentSeconds: number): SceneFrames {
  const cuts = [...first.cuts];
  const firstSceneCut = second.cuts[0]?.time ?? Infinity;
  let last = cuts[cuts.length - 1]?.time ?? 0;
  const promoted = new Set<CutFrame>();
  for (const key of second.keys) {
    if (key.time >= firstSceneCut) break;
    if (key.time - last >= maxSegmentSeconds - LENGTH_EPSILON) {
      cuts.push(key);
      promoted.add(key);
      last = key.time;
    }
  }
  cuts.push(...second.cuts);
  return { cuts, keys: [...first.keys, ...second.keys.filter((k) => !promoted.has(k))] };
}

/** Keeps 10.0 - 1e-9 s from missing a cut by length. */
const LENGTH_EPSILON = 0.001;

/**
 * One ffmpeg pass that decodes keyframes only (`-skip_frame nokey`, the cheap part of a decode), scores scene change
 * between consecutive keyframes on a downscaled copy, and writes a JPEG for the keyframes that start a segment.
 * Cuts therefore fall on keyframes: encoders put one at hard cuts, and phone footage has one every second or so. The
 * keyframes it decodes anyway are also written every KEY_SPACING_SECONDS (a JPEG of the scaled frame costs ~2 ms, a
 * seek that decodes 1080p again from the keyframe before ~70 ms); the caller deletes those it does not use. A scan of
 * a later part (`range.from` > 0) starts at the keyframe before `range.seekTo`: the keyframes before `range.from` are
 * only there to be scored against, and its first cut is a scene cut (it cannot know the cut before it).
 */
async function scanPart(options: SceneCutOptions, range: PartRange): Promise<SceneFrames> {
  const {
    videoPath,
    workDir,
    maxSegmentSeconds,
    threshold = 0.3,
    frameWidth = KEYFRAME_WIDTH,
    signal,
    onTime,
  } = options;
  // Times inside this scan count from range.seekTo (ffmpeg's -ss shifts them); frames before range.from are context.
  const from = Number((range.from - range.seekTo).toFixed(3));
  const inRange = range.from > 0 ? `gte(t\\,${from})*` : '';
  const first = range.from > 0 ? '' : 'eq(n\\,0)+';
  // Commas inside filter expressions must be escaped.
  const select = `select='${inRange}(${first}gt(scene\\,${threshold})+gte(t-prev_selected_t\\,${maxSegmentSeconds - LENGTH_EPSILON}))'`;
  const seek = range.seekTo > 0 ? ['-ss', range.seekTo.toFixed(3), '-noaccurate_seek'] : [];
  const until = range.to === null ? [] : ['-t', range.to.toFixed(3)];
  const { stderr } = await runTool(
    ffmpegPath(),
    [
      '-hide_banner',
      '-nostats',
      '-loglevel',
      'info',
      ...mediaInput('storedVideo', videoPath, ['-skip_frame', 'nokey', ...seek, ...until]),
      '-an',
      '-sn',
      '-dn',
      // Each keyframe is doubled (split + interleave) before select: the scene score is min(change, change in
      // change) between consecutive frames, so without a still copy in between, a cut right after another cut
      // (slideshows, fast edits, seen keyframe to keyframe) scored 0.1 instead of 0.5.
      // yuvj420p on the spread keyframes as in frames.ts: their JPEGs come out as a seek-extracted frame's.
      '-filter_complex',
      `[0:v]${scaleFilter(frameWidth)},split[s][k];[s]split[a][b];[a][b]interleave,${select},showinfo@cuts[c];` +
        `[k]select='${inRange}(isnan(prev_selected_t)+gte(t-prev_selected_t\\,${KEY_SPACING_SECONDS}))',format=yuvj420p,showinfo@keys[l]`,
      // -vsync, not its successor -fps_mode (ffmpeg 5.1+): the ffmpeg bundled with packaged apps (@ffmpeg-installer) is 4.1.
      '-vsync',
      'passthrough',
      '-progress',
      'pipe:1',
      ...['-map', '[c]', '-q:v', '4', join(workDir, `${range.prefix}cut-%06d.jpg`)],
      ...['-map', '[l]', '-q:v', '4', join(workDir, `${range.prefix}key-%06d.jpg`)],
    ],
    {
      signal,
      onStdoutLine: (line) => {
        const m = /^out_time_us=(-?\d+)/.exec(line);
        if (m && onTime) onTime(Math.max(0, Number(m[1]) / 1e6 - from));
      },
    },
  );
  return parseShowinfo(stderr, workDir, { prefix: range.prefix, offset: range.seekTo });
}

/**
 * Frames from showinfo lines; the n-th frame shown by showinfo@cuts was written as cut-(n+1).jpg, @keys as key-
 * (each name after `prefix`); `offset` is added to the times (a scan that seeked counts from where it seeked to).
 */
export function parseShowinfo(stderr: string, workDir: string, names = { prefix: '', offset: 0 }): SceneFrames {
  const found: SceneFrames = { cuts: [], keys: [] };
  for (const line of stderr.split('\n')) {
    const m = SHOWINFO.exec(line);
    if (!m) continue;
    const cut = m[1] === 'cuts';
    const info = showinfoSchema.parse({ n: m[2], time: m[3], width: m[4], height: m[5] });
    (cut ? found.cuts : found.keys).push({
      // showinfo prints six significant digits: so are the times of a scan that seeked, as one pass would give them.
      time: Math.max(0, Number((info.time + names.offset).toPrecision(6))),
      file: join(workDir, `${names.prefix}${cut ? 'cut' : 'key'}-${String(info.n + 1).padStart(6, '0')}.jpg`),
      width: info.width,
      height: info.height,
    });
  }
  return found;
}
