import { existsSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { blankKeyframes, isBlankPicture } from './blank-frame';
import { decodeRgb, extractFrameAt, extractFramesWithRgb, imageSize, type FrameShot, type JpegDecode } from './frames';
import type { CutFrame } from './scene-cuts';
import type { PlannedSegment } from './segment-plan';
import { unreachable } from '../../shared/errors';
import type { FrameImage, SegmentFrame } from './types';

/** A later frame closer than this to the keyframe shows the same moment: not worth a second read. */
export const MIN_LATER_GAP_SECONDS = 0.4;

/**
 * Segments' pixels (keyframe decoded, later frame extracted) are made this many segments at a time, in one ffmpeg run
 * (its start-up costs as much as a frame).
 */
const LATER_BATCH = 8;

/** When the segment's second frame is taken (its middle), or null when that is too close to the keyframe's time. */
export function laterFrameTime(segment: { start: number; end: number }, keyframeTime: number): number | null {
  const middle = (segment.start + segment.end) / 2;
  return middle - keyframeTime >= MIN_LATER_GAP_SECONDS ? middle : null;
}

/**
 * The scene pass's keyframe that serves as the segment's later frame: the one nearest its middle, within the middle
 * half of the segment and at least MIN_LATER_GAP_SECONDS after the keyframe. Null when none is (then the middle is
 * seek-extracted). With keyframes every second or two, that is a frame at most a second from the middle.
 */
export function laterKey<K extends { time: number }>(
  segment: { start: number; end: number },
  keyframeTime: number,
  keys: K[],
): K | null {
  const middle = (segment.start + segment.end) / 2;
  const reach = (segment.end - segment.start) / 4;
  let best: K | null = null;
  for (const key of keys) {
    if (key.time - keyframeTime < MIN_LATER_GAP_SECONDS || Math.abs(key.time - middle) > reach) continue;
    if (!best || Math.abs(key.time - middle) < Math.abs(best.time - middle)) best = key;
  }
  return best;
}

/**
 * Gives every planned segment its own keyframe file (keyframe-0007.jpg), extracting the ones that had no cut keyframe,
 * and deletes cut frames no segment uses. Each segment can also give a frame from its middle (later-0007.jpg): one of
 * the scene pass's spread keyframes (`keys`) when one lies near the middle, else extracted only when an analyzer asks
 * for it. Spread keyframes no segment uses are deleted.
 */
export async function materializeFrames(
  videoPath: string,
  workDir: string,
  plan: PlannedSegment[],
  cuts: CutFrame[],
  signal?: AbortSignal,
  keys: CutFrame[] = [],
): Promise<SegmentFrame[]> {
  const used = new Set<string>();
  const cutTimes = new Map(cuts.map((c) => [c.file, c.time]));
  const paths: string[] = [];
  const times: number[] = [];
  for (const segment of plan) {
    const target = join(workDir, `keyframe-${String(segment.index).padStart(4, '0')}.jpg`);
    const frame = segment.frame;
    let time: number;
    switch (frame.kind) {
      case 'cut':
        if (used.has(frame.file)) {
          time = segment.start + Math.min(0.5, (segment.end - segment.start) / 2);
          await extractFrameAt(videoPath, time, target, signal);
        } else {
          used.add(frame.file);
          time = cutTimes.get(frame.file) ?? segment.start;
          await rename(frame.file, target);
        }
        break;
      case 'seek':
        time = frame.time;
        await extractFrameAt(videoPath, time, target, signal);
        break;
      default:
        throw unreachable(frame);
    }
    paths.push(target);
    times.push(time);
  }
  const first = paths[0];
  const size = cuts[0] ?? (first ? await imageSize(first, signal) : null);
  const shots: (FrameShot | null)[] = [];
  const laterJpegs: (JpegDecode | null)[] = [];
  const keysOfSize = size ? keys.filter((k) => sameSize(k, size)) : [];
  for (const [i, segment] of plan.entries()) {
    const name = join(workDir, `later-${String(segment.index).padStart(4, '0')}`);
    const keyframeTime = times[i] ?? segment.start;
    const key = laterKey(segment, keyframeTime, keysOfSize);
    // A key ffmpeg did not write after all is no reason to fail: the middle is then extracted.
    if (
      key &&
      (await rename(key.file, `${name}.jpg`).then(
        () => true,
        () => false,
      ))
    ) {
      used.add(key.file);
      laterJpegs.push({ jpegIn: `${name}.jpg`, rgbOut: `${name}.rgb` });
      shots.push(null);
      continue;
    }
    const time = laterFrameTime(segment, keyframeTime);
    laterJpegs.push(null);
    shots.push(time === null ? null : { time, jpegOut: `${name}.jpg`, rgbOut: `${name}.rgb` });
  }
  await Promise.all([...cuts, ...keys].filter((c) => !used.has(c.file)).map((c) => rm(c.file, { force: true })));
  if (!first || !size) return [];

  const laterFrame = laterFrames(
    videoPath,
    shots,
    laterJpegs,
    paths.map((jpegIn) => ({ jpegIn, rgbOut: jpegIn.replace(/\.jpg$/, '.rgb') })),
    size,
    signal,
  );
  const blank = await blankKeyframes(paths, size, signal);
  const frames: SegmentFrame[] = [];
  for (const [i, segment] of plan.entries()) {
    const keyframePath = paths[i] ?? first;
    const replaced = blank.has(keyframePath) ? await replaceBlank(keyframePath, i, laterFrame) : null;
    let rgb: Promise<Uint8Array> | null = replaced ? Promise.resolve(replaced) : null;
    frames.push({
      index: segment.index,
      start: segment.start,
      end: segment.end,
      keyframePath,
      width: size.width,
      height: size.height,
      rgb: () => (rgb ??= laterFrame.keyframeRgb(i)),
      laterFrame: () => laterFrame.get(i),
      // A 640 px frame is 0.7 MB of RGB: kept for every segment of a long video, that would add up.
      release: async () => {
        rgb = null;
        await laterFrame.release(i);
      },
    });
  }
  return frames;
}

/**
 * A blank keyframe (the black first frame of a fade-in, a flash) shows the editor nothing and gives the analyzers
 * nothing: the segment's middle frame takes its place when it is not blank too. Returns the new keyframe's pixels, or
 * null when the keyframe stays.
 */
async function replaceBlank(keyframePath: string, i: number, laterFrame: LaterFrames): Promise<Uint8Array | null> {
  const later = await laterFrame.get(i);
  if (!later) return null;
  const pixels = await later.rgb();
  if (isBlankPicture(pixels)) return null;
  await rename(later.path, keyframePath);
  await laterFrame.release(i);
  return pixels;
}

function sameSize(a: { width: number; height: number }, b: { width: number; height: number }): boolean {
  return a.width === b.width && a.height === b.height;
}

interface LaterFrames {
  get(i: number): Promise<FrameImage | null>;
  /** Segment i's keyframe as packed RGB, decoded by its batch's run. */
  keyframeRgb(i: number): Promise<Uint8Array>;
  /** Deletes segment i's later frame files and decoded keyframe; a later ask gets null. */
  release(i: number): Promise<void>;
}

/**
 * The later frame and the decoded keyframe of segment i, on demand: the first ask in a run of LATER_BATCH segments
 * makes the whole run's in one ffmpeg call. If that call fails, each frame of the run is tried on its own, so one bad
 * seek costs one segment. A later frame is either seek-extracted (`shots`) or a scene-pass keyframe already on disk
 * (`laterJpegs`), decoded in the keyframes' run.
 */
function laterFrames(
  videoPath: string,
  shots: (FrameShot | null)[],
  laterJpegs: (JpegDecode | null)[],
  keyframes: JpegDecode[],
  size: { width: number; height: number },
  signal?: AbortSignal,
): LaterFrames {
  const laterBatches = new Map<number, Promise<void>>();
  const keyframeBatches = new Map<number, Promise<void>>();
  const images = new Map<number, Promise<FrameImage | null>>();
  const released = new Set<number>();
  const once = (runs: Map<number, Promise<void>>, batch: number, make: (from: number) => Promise<void>) => {
    let run = runs.get(batch);
    if (!run) runs.set(batch, (run = make(batch * LATER_BATCH)));
    return run;
  };

  const batchOf = (i: number): Promise<void> =>
    once(laterBatches, Math.floor(i / LATER_BATCH), (from) =>
      extractFramesWithRgb(
        videoPath,
        shots.slice(from, from + LATER_BATCH).filter((s): s is FrameShot => s !== null),
        signal,
      ),
    );

  // Keyframes are decoded in a run of their own, not with the later frames: that run is quick (small JPEGs), and the
  // detector waits on it. The next batch is decoded ahead, so it never waits again.
  const keyframeBatchOf = (i: number): Promise<void> => {
    const batch = Math.floor(i / LATER_BATCH);
    const decode = (from: number): Promise<void> => {
      const live = (_: unknown, k: number): boolean => !released.has(from + k);
      const later = laterJpegs.slice(from, from + LATER_BATCH).filter(live);
      return extractFramesWithRgb(videoPath, [], signal, [
        ...keyframes.slice(from, from + LATER_BATCH).filter(live),
        ...later.filter((d): d is JpegDecode => d !== null),
      ]);
    };
    if ((batch + 1) * LATER_BATCH < keyframes.length) once(keyframeBatches, batch + 1, decode).catch(() => {});
    return once(keyframeBatches, batch, decode);
  };

  const decodedRgb = async (i: number, decode: JpegDecode): Promise<Uint8Array> => {
    try {
      await keyframeBatchOf(i);
      const bytes = await readFile(decode.rgbOut);
      if (bytes.length === size.width * size.height * 3)
        return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    } catch (err) {
      if (signal?.aborted) throw err;
    }
    // The batch failed or wrote a frame of another size: this JPEG alone, as before batches.
    return decodeRgb(decode.jpegIn, size.width, size.height, signal);
  };

  const keyframeRgb = async (i: number): Promise<Uint8Array> => {
    const decode = keyframes[i];
    if (!decode) throw new Error(`segment ${i} has no keyframe`);
    return decodedRgb(i, decode);
  };

  const fromKey = (i: number, decode: JpegDecode): FrameImage => {
    let pixels: Promise<Uint8Array> | null = null;
    return { path: decode.jpegIn, rgb: () => (pixels ??= decodedRgb(i, decode)) };
  };

  const extract = async (i: number, shot: FrameShot): Promise<FrameImage | null> => {
    try {
      await batchOf(i);
    } catch (err) {
      if (signal?.aborted) throw err;
      await extractFramesWithRgb(videoPath, [shot], signal);
    }
    // ffmpeg writes no JPEG, and still exits 0, when the seek lands past the last frame it can decode.
    if (!existsSync(shot.jpegOut)) {
      await rm(shot.rgbOut, { force: true });
      return null;
    }
    let pixels: Promise<Uint8Array> | null = null;
    return {
      path: shot.jpegOut,
      rgb: () => (pixels ??= readFile(shot.rgbOut).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.length))),
    };
  };

  return {
    keyframeRgb,
    get: (i) => {
      const shot = shots[i];
      const key = laterJpegs[i];
      if ((!shot && !key) || released.has(i)) return Promise.resolve(null);
      let image = images.get(i);
      if (!image) images.set(i, (image = key ? Promise.resolve(fromKey(i, key)) : extract(i, shot as FrameShot)));
      return image;
    },
    release: async (i) => {
      const shot = shots[i];
      released.add(i);
      const image = images.get(i);
      images.delete(i);
      // Its batch may still be writing them (asked for by a neighbour): delete after, not before.
      const batch = Math.floor(i / LATER_BATCH);
      await Promise.allSettled([image, laterBatches.get(batch), keyframeBatches.get(batch)]);
      const key = laterJpegs[i];
      const files = [keyframes[i]?.rgbOut, shot?.jpegOut, shot?.rgbOut, key?.jpegIn, key?.rgbOut].filter(
        (f): f is string => f !== undefined,
      );
      await Promise.all(files.map((f) => rm(f, { force: true })));
    },
  };
}
