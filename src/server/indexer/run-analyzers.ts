import { unreachable } from '../../shared/errors';
import { stillFrames, type StillFrames } from './still-frames';
import {
  abortError,
  type FrameFindings,
  type Analyzer,
  type AudioAnalyzer,
  type Face,
  type FrameAnalyzer,
  type Label,
  type MediaInput,
  type SegmentFrame,
  type TimedWord,
} from './types';

export interface AnalyzerFailure {
  analyzer: string;
  /** null when the analyzer works on the whole video (speech). */
  segmentIndex: number | null;
  message: string;
}

export interface SegmentCollected {
  ocrText: string[];
  labels: Label[];
  faces: Face[];
  /** The colour analyzer's measure of the keyframe (FrameFindings.shotQuality); null when none measured it. */
  shotQuality: number | null;
}

export interface RunOutcome {
  findings: SegmentCollected[];
  words: TimedWord[];
  failures: AnalyzerFailure[];
  /** Milliseconds each analyzer spent inside its calls (waits on shared pixels included), for the log. */
  busyMs: Record<string, number>;
}

export interface RunInput {
  analyzers: Analyzer[];
  frames: SegmentFrame[];
  media: MediaInput;
  signal?: AbortSignal;
  /** 0..1 of the analysis work done. */
  onFraction: (fraction: number) => void;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Runs every analyzer at once, each through the segments in order: OCR works in tesseract's worker thread while
 * objects run on the wasm backend here and speech in its own process, so two cores stay busy. A failure on one
 * segment is recorded and the analyzer goes on with the next; only an abort stops everything. An analyzer that reads
 * only the keyframe is not run again on a segment showing the same picture as the one before (a still shot that was
 * split by length): it gets its findings on that segment again.
 */
export async function runAnalyzers(input: RunInput): Promise<RunOutcome> {
  const { analyzers, frames, media, signal, onFraction } = input;
  const findings: SegmentCollected[] = frames.map(() => ({ ocrText: [], labels: [], faces: [], shotQuality: null }));
  const failures: AnalyzerFailure[] = [];
  const words: TimedWord[] = [];
  const busyMs: Record<string, number> = {};
  const timed = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      busyMs[name] = Math.round((busyMs[name] ?? 0) + performance.now() - started);
    }
  };

  const frameAnalyzers: FrameAnalyzer[] = [];
  const audioAnalyzers: AudioAnalyzer[] = [];
  for (const analyzer of analyzers) {
    switch (analyzer.kind) {
      case 'frame':
        frameAnalyzers.push(analyzer);
        break;
      case 'audio':
        audioAnalyzers.push(analyzer);
        break;
      default:
        throw unreachable(analyzer);
    }
  }

  // Weights for progress: an audio pass counts as half of all the frame work.
  const frameUnits = frames.length * frameAnalyzers.length;
  const audioWeight = media.hasAudio ? Math.max(1, frameUnits / 2) : 0;
  const total = frameUnits + audioWeight * audioAnalyzers.length || 1;
  let done = 0;
  const advance = (units: number): void => {
    done += units;
    onFraction(Math.min(1, done / total));
  };

  const checkAbort = (): void => {
    if (signal?.aborted) throw abortError(signal);
  };

  // Only worth comparing keyframes when some analyzer can skip a segment on the answer.
  const stills = frameAnalyzers.some((a) => a.keyframeOnly) ? stillFrames(frames) : null;
  const pace = segmentPace(frames, frameAnalyzers.length, stills, signal);

  const frameLoop = async (analyzer: FrameAnalyzer): Promise<void> => {
    // This analyzer's findings on the segment before, when it had any (not after a failure).
    let previous: FrameFindings | null = null;
    for (const frame of frames) {
      checkAbort();
      await pace.turn(frame.index);
      try {
        const still = previous !== null && analyzer.keyframeOnly === true && (await stills?.same(frame.index)) === true;
        const found: FrameFindings =
          still && previous ? previous : await timed(analyzer.name, () => analyzer.analyze(frame, signal));
        previous = found;
        const target = findings[frame.index];
        if (target) {
          if (found.ocrText) target.ocrText.push(found.ocrText);
          target.labels.push(...(found.labels ?? []));
          target.faces.push(...(found.faces ?? []));
          if (found.shotQuality !== undefined) target.shotQuality = found.shotQuality;
        }
      } catch (err) {
        checkAbort();
        previous = null;
        failures.push({ analyzer: analyzer.name, segmentIndex: frame.index, message: message(err) });
      }
      pace.done(frame.index);
      advance(1);
    }
  };

  const audioRun = async (analyzer: AudioAnalyzer): Promise<void> => {
    checkAbort();
    try {
      words.push(...(await timed(analyzer.name, () => analyzer.analyze(media, signal))));
    } catch (err) {
      checkAbort();
      failures.push({ analyzer: analyzer.name, segmentIndex: null, message: message(err) });
    }
    advance(audioWeight);
  };

  // allSettled, not all: after an abort no loop may still be running when this returns.
  const settled = await Promise.allSettled([...frameAnalyzers.map(frameLoop), ...audioAnalyzers.map(audioRun)]);
  await pace.released();
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  words.sort((a, b) => a.start - b.start);
  return { findings, words, failures, busyMs };
}

/** How many segments a frame analyzer may run ahead of the slowest one: their frames stay decoded and on disk. */
export const MAX_LEAD_SEGMENTS = 8;

interface SegmentPace {
  /** Resolves when the analyzer may start the segment at `position` (rejects on abort). */
  turn(position: number): Promise<void>;
  /** One analyzer is done with the segment at `position`; the last one releases its frames. */
  done(position: number): void;
  /** Resolves once every release started has finished. */
  released(): Promise<void>;
}

/**
 * Frame analyzers share each segment's pixels and later frame (OCR and motion read the same one), so a segment's
 * frames are released when the last analyzer is done with it, and no analyzer runs more than MAX_LEAD_SEGMENTS ahead
 * of the slowest: a fast analyzer would otherwise have every later frame of a long video extracted and held at once.
 */
function segmentPace(
  frames: SegmentFrame[],
  analyzers: number,
  stills: StillFrames | null,
  signal?: AbortSignal,
): SegmentPace {
  const doneBy = frames.map(() => 0);
  let finished = 0;
  const waiting: { position: number; resolve: () => void; reject: (err: unknown) => void }[] = [];
  const releases: Promise<void>[] = [];
  const wake = (): void => {
    for (const w of waiting.filter((w) => w.position < finished + MAX_LEAD_SEGMENTS)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  signal?.addEventListener(
    'abort',
    () => {
      for (const w of waiting.splice(0)) w.reject(abortError(signal));
    },
    { once: true },
  );
  return {
    turn: async (position) => {
      if (position < finished + MAX_LEAD_SEGMENTS) return;
      if (signal?.aborted) throw abortError(signal);
      await new Promise<void>((resolve, reject) => waiting.push({ position, resolve, reject }));
    },
    done: (position) => {
      doneBy[position] = (doneBy[position] ?? 0) + 1;
      if (doneBy[position] !== analyzers) return;
      const frame = frames[position];
      // Deleting scratch files cannot lose anything: a failure only leaves them for the caller's folder cleanup.
      // The next segment's keyframe is compared with this one's before this one's pixels go.
      const release = async (): Promise<void> => {
        await stills?.same(position + 1);
        await frame?.release?.();
      };
      if (frame?.release) releases.push(release().catch(() => {}));
      while (finished < frames.length && doneBy[finished] === analyzers) finished++;
      wake();
    },
    released: async () => {
      await Promise.all(releases);
    },
  };
}
