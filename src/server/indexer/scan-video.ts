import { stat } from 'node:fs/promises';
import { ffprobe, type ProbeResult } from '../../common/media/ffprobe';
import { AnalyzeError } from './analyze-error';
import { keyframeSizes } from './keyframe-sizes';
import { detectSceneCuts, type SceneFrames } from './scene-cuts';

/**
 * A file smaller than this is scanned in one pass with the probe beside it: its keyframes decode in a fraction of a
 * second, so two parts would save less than waiting for the probe (~0.1 s) costs.
 */
export const SPLIT_MIN_BYTES = 8 * 1024 * 1024;

export interface ScanOptions {
  videoPath: string;
  workDir: string;
  maxSegmentSeconds: number;
  signal?: AbortSignal;
  /** 0..1 of the scan done, once the duration is known. */
  onFraction: (fraction: number) => void;
  /** Called once the probe has answered (for the stage timings). */
  onProbed: () => void;
  /** Default SPLIT_MIN_BYTES. */
  splitMinBytes?: number;
}

export interface ScannedVideo extends SceneFrames {
  probe: ProbeResult;
  /** How far the scan decoded: the duration when the probe has none. */
  decodedSeconds: number;
}

/**
 * The probe and the scene scan (scene-cuts.ts). A large file is probed first, beside a read of its keyframes' sizes,
 * so its scan can run as two parts at once split by decoding work; a small one is scanned in one pass while it is
 * probed. Rejects with AnalyzeError when the file has no video stream.
 */
export async function scanVideo(opts: ScanOptions): Promise<ScannedVideo> {
  const { videoPath, signal } = opts;
  let expected = 0;
  let decodedSeconds = 0;
  const scan = {
    videoPath,
    workDir: opts.workDir,
    maxSegmentSeconds: opts.maxSegmentSeconds,
    onTime: (seconds: number): void => {
      decodedSeconds = Math.max(decodedSeconds, seconds);
      if (expected > 0) opts.onFraction(Math.min(1, seconds / expected));
    },
  };
  const probed = (probe: ProbeResult): ProbeResult => {
    opts.onProbed();
    if (!probe.video) throw new AnalyzeError('the file has no video stream');
    expected = probe.durationSeconds ?? 0;
    // A scan beside the probe may have got far (or finished) before the duration was known: say how far.
    if (expected > 0 && decodedSeconds > 0) opts.onFraction(Math.min(1, decodedSeconds / expected));
    return probe;
  };
  const bytes = await stat(videoPath).then(
    (s) => s.size,
    () => null,
  );
  if (bytes !== null && bytes < (opts.splitMinBytes ?? SPLIT_MIN_BYTES)) {
    // The probe failing stops the scan too.
    const pass = new AbortController();
    const cutting = detectSceneCuts({
      ...scan,
      parts: 1,
      signal: signal ? AbortSignal.any([signal, pass.signal]) : pass.signal,
    });
    cutting.catch(() => {});
    try {
      const probe = probed(await ffprobe(videoPath, { kind: 'storedVideo', signal }));
      return { probe, ...(await cutting), decodedSeconds };
    } catch (err) {
      pass.abort(err);
      await cutting.catch(() => {});
      throw err;
    }
  }
  // Without the sizes (a container ffmpeg cannot copy packets from) the parts are split by time.
  const sizes = keyframeSizes(videoPath, signal).catch(() => undefined);
  const probe = probed(await ffprobe(videoPath, { kind: 'storedVideo', signal }));
  const keyframes = await sizes;
  const found = await detectSceneCuts({
    ...scan,
    durationSeconds: probe.durationSeconds ?? undefined,
    keyframes,
    signal,
  });
  return { probe, ...found, decodedSeconds };
}
