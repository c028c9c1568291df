import { join } from 'node:path';
import type { Logger } from 'pino';
import { createAnalyzers } from './analyzers/index';
import { cutPaceLabels } from './analyzers/cut-pace';
import { buildCaption } from './caption';
import { makePoster } from './frames';
import { monotonicProgress } from './progress';
import { AnalyzeError } from './analyze-error';
import { scanVideo } from './scan-video';
import { materializeFrames } from './segment-frames';
import { planSegments } from './segment-plan';
import { runAnalyzers, type AnalyzerFailure } from './run-analyzers';
import type { Analyzer, Face, Label, TimedWord } from './types';

export type { Analyzer, AudioAnalyzer, FrameAnalyzer, SegmentFrame, MediaInput, Availability } from './types';
export type { AnalyzerFailure } from './run-analyzers';
export { createAnalyzers } from './analyzers/index';

export interface AnalyzeOptions {
  videoPath: string;
  /** Scratch folder for keyframes, poster and wav; the caller deletes it once it has stored what it needs. */
  workDir: string;
  /** The upload's video_transcription_prompt: its long dictionary words are keyword-spotted by the speech engine. */
  transcriptionPrompt?: string;
  /** Default 10. */
  maxSegmentSeconds?: number;
  signal?: AbortSignal;
  /** 0..100, monotonic, ends with 100. */
  onProgress?: (percent: number, stage: string) => void;
  /**
   * Default: every analyzer of this build, created, checked and closed inside this call (about a second of model
   * loading each time). A service should create them once with `createAnalyzers()` and pass them in: then they are
   * checked here but never closed here.
   */
  analyzers?: Analyzer[];
  logger?: Logger;
}

export interface AnalyzedSegment {
  index: number;
  start: number;
  end: number;
  keyframePath: string;
  ocrText: string;
  labels: Label[];
  transcript: string;
  caption: string;
  faces: Face[];
  /** 0..1 sharpness x exposure of the keyframe (analyzers/shot-quality.ts); null when the colour analyzer did not run. */
  shotQuality: number | null;
}

export interface AnalyzeResult {
  durationSeconds: number;
  posterPath: string;
  segments: AnalyzedSegment[];
  words: TimedWord[];
  missingEngines: { analyzer: string; reason: string }[];
  analyzers: { name: string; version: string }[];
  /** Analyzers that threw on a segment (segmentIndex) or on the whole video (null); the rest of the work went on. */
  failures: AnalyzerFailure[];
}

export { AnalyzeError } from './analyze-error';

const SEGMENTING_END = 12;
const ANALYZING_START = 15;

/** Turns one video into index material: segments with keyframes, OCR text, labels, faces, transcript and captions. */
export async function analyzeVideo(opts: AnalyzeOptions): Promise<AnalyzeResult> {
  const { videoPath, workDir, signal } = opts;
  const maxSegmentSeconds = opts.maxSegmentSeconds ?? 10;
  if (!(maxSegmentSeconds > 0)) throw new AnalyzeError(`maxSegmentSeconds must be positive, got ${maxSegmentSeconds}`);
  const progress = monotonicProgress(opts.onProgress);
  const log = opts.logger?.child({ module: 'indexer', videoPath });
  const started = Date.now();
  // Where the time goes (wall ms per stage, and each analyzer's), logged with the result.
  const stageMs: Record<string, number> = {};
  const lap = (() => {
    let last = started;
    return (stage: string): void => {
      const now = Date.now();
      stageMs[stage] = now - last;
      last = now;
    };
  })();

  progress(0, 'probing');
  const owned = opts.analyzers === undefined;
  const analyzers = opts.analyzers ?? createAnalyzers();
  try {
    // Model loading (seconds on first use) overlaps the probe and the ffmpeg pass.
    const availability = Promise.all(
      analyzers.map(async (analyzer) => ({ analyzer, state: await analyzer.available() })),
    );
    availability.catch(() => {});

    progress(1, 'segmenting');
    const { probe, cuts, keys, decodedSeconds } = await scanVideo({
      videoPath,
      workDir,
      maxSegmentSeconds,
      signal,
      onFraction: (fraction) => progress(1 + (SEGMENTING_END - 1) * fraction, 'segmenting'),
      onProbed: () => lap('probe'),
    });
    lap('sceneCuts');
    const durationSeconds = probe.durationSeconds ?? decodedSeconds;
    if (!(durationSeconds > 0)) throw new AnalyzeError('the video has no duration and no decodable frames');
    const plan = planSegments(cuts, durationSeconds, maxSegmentSeconds);
    const frames = await materializeFrames(videoPath, workDir, plan, cuts, signal, keys);
    const posterSource = frames.find((f) => f.end > durationSeconds * 0.1) ?? frames[0];
    if (!posterSource) throw new AnalyzeError('no keyframe could be extracted');
    const posterPath = join(workDir, 'poster.jpg');
    // Made while the analyzers run, awaited before the result: nothing waits on it.
    const poster = makePoster(posterSource.keyframePath, posterPath, signal);
    poster.catch(() => {});
    lap('frames');
    progress(ANALYZING_START, 'analyzing');

    const states = await availability;
    lap('modelsReady');
    const usable = states.filter((s) => s.state.ok).map((s) => s.analyzer);
    const missingEngines = states.flatMap((s) =>
      s.state.ok ? [] : [{ analyzer: s.analyzer.name, reason: s.state.reason }],
    );
    for (const missing of missingEngines) log?.warn(missing, 'analyzer unavailable');

    const outcome = await runAnalyzers({
      analyzers: usable,
      frames,
      media: {
        videoPath,
        workDir,
        durationSeconds,
        hasAudio: probe.audio !== null,
        transcriptionPrompt: opts.transcriptionPrompt,
      },
      signal,
      onFraction: (fraction) => progress(ANALYZING_START + (99 - ANALYZING_START) * fraction, 'analyzing'),
    });
    await poster;
    lap('analyzers');
    for (const failure of outcome.failures) log?.warn(failure, 'analyzer failed');
    const pace = cutPaceLabels(frames, maxSegmentSeconds);

    const segments = frames.map((frame, i): AnalyzedSegment => {
      const found = outcome.findings[i] ?? { ocrText: [], labels: [], faces: [], shotQuality: null };
      const ocrText = found.ocrText.filter(Boolean).join(' ');
      const last = i === frames.length - 1;
      const transcript = outcome.words
        .filter((w) => w.start >= frame.start && (last || w.start < frame.end))
        .map((w) => w.word)
        .join(' ');
      return {
        index: frame.index,
        start: frame.start,
        end: frame.end,
        keyframePath: frame.keyframePath,
        ocrText,
        labels: mergeLabels([...found.labels, ...(pace[i] ?? [])]),
        transcript,
        caption: buildCaption({
          // Only the detector's objects are things to name: descriptors ("close-up", "red") are not.
          detections: found.labels.filter(isDetection),
          faces: found.faces,
          ocrText,
          transcript,
        }),
        faces: found.faces,
        shotQuality: found.shotQuality,
      };
    });
    progress(100, 'done');
    log?.info(
      { segments: segments.length, durationSeconds, ms: Date.now() - started, stageMs, analyzerMs: outcome.busyMs },
      'video analyzed',
    );
    return {
      durationSeconds,
      posterPath,
      segments,
      words: outcome.words,
      missingEngines,
      analyzers: usable.map((a) => ({ name: a.name, version: a.version })),
      failures: outcome.failures,
    };
  } finally {
    if (owned) await Promise.allSettled(analyzers.map((a) => a.close()));
  }
}

/** The caption counts detected things ("two cars"); descriptors (colours, motion) are not things. */
function isDetection(label: Label): boolean {
  return label.source.startsWith('objects:');
}

/** One label per (label, source), with its best score, best first. */
function mergeLabels(labels: Label[]): Label[] {
  const best = new Map<string, Label>();
  for (const l of labels) {
    const key = `${l.source}\u0000${l.label}`;
    const seen = best.get(key);
    if (!seen || l.score > seen.score) best.set(key, l);
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.label.localeCompare(b.label));
}
